package i18n

// untrustedZH is untrustedEN in Chinese.
var untrustedZH = map[string]string{
	"class.err.calls":          "它的调用不是练习 %s 的模型会做的一次运行（被手工改过？）",
	"class.err.lesson":         "练习 %s：这个 archlab 里没有要点 %q（被手工改过，还是另一个 archlab？）",
	"class.lesson.unit":        "书中的测试 %s 未通过",
	"class.lesson.drill":       "演练 %s：%s",
	"class.lesson.counter":     "演练 %s：计数器 %s 与书中不同",
	"class.err.name-invisible": "它的名字里有看不见的字符（零宽空格、方向标记或方向覆盖）：可能藏着另一个学生的名字",
	"class.err.name-mixed":     "它的名字把拉丁字母与西里尔或希腊字母混用：某个字母只是看起来像拉丁字母？",
	"class.err.look-alike":     "它的名字读起来与 %s 相同（同样的字母换了大小写或另一种 Unicode 形式，或另一种字母里形近的字母）：是同一个学生",
	"state.col.table":          "收件箱表",
	"state.table.waiting":      "已存入，等待恢复处理",
	"state.table.none":         "—",
	"web.class.refused-hidden": "未读取的文件：%d 个。它们以学生姓名命名：archlab class 会列出它们，加 --names 时本页也会。",
	"err.os.dangling":          "%s 是指向 %s 的链接，而它并不存在",
	"err.os.not-folder":        "%s 不是文件夹",
	"err.os.too-long":          "路径太长，这个系统不接受",
	"class.saved-drill":        "第 %[1]d 行的最短运行，由 archlab class 保存为 %[2]s：在该学生的仓库里，\n\"archlab drill --file %[2]s\" 重放它。下面各行来自该学生的结果，原样保留。",
}
