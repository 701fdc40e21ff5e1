package i18n

// hostileZH 是 hostileEN 的中文。
var hostileZH = map[string]string{
	"web.state.err.too-large": "状态页面最多走 %d 个键的世界，它的每一步都从起点重放；这个起点要求更多：请用它的演练页面运行",
	"web.err.cross-site":      "这个页面会运行演练：只为本服务器自己的页面和点开的链接提供，不为其他站点的 %s 提供",
	"drill.student.no-result": "学生的代码在演练完成之前结束了 archlab 的进程：%s",
	"drill.student.printed":   "演练运行期间你的代码打印了 %s 行（与运行分开显示）；前 %d 行：",
}
