package i18n

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// Term is one entry of the Chinese glossary: the word every Chinese text
// uses for an idea of the book, and the variants it must not use.
//
// The chosen words come first from the book itself: the titles of its
// sections (8.2 消费端幂等、去重表与恰好一次的真实边界, 8.3 消息顺序、重放与死信
// 的对账闭环, 11.2 任务分片、幂等重跑与进度检查点). Where the book gives no
// Chinese word (epoch, fencing, sink, the explorer's schedules), the glossary
// picks one, and TestGlossary keeps the others out. GLOSSARY.md is the same
// table for a translator.
type Term struct {
	EN string // the idea, as the English catalogue and the book's code say it
	ZH string // the one Chinese word for it
	// Rejected are variants a translation must not use. A variant made of
	// ASCII letters is matched as a whole word of prose (not inside a code
	// identifier, a path, a flag or a drill name); any other variant is
	// matched anywhere.
	Rejected []string
	// Allow are longer phrases that contain a rejected variant and are
	// right: 消费者组 (consumer group) contains 消费者.
	Allow []string
}

// Glossary is archlab's Chinese vocabulary, in the book's order of ideas.
var Glossary = []Term{
	// §8.2: the consumer side.
	{EN: "consumer (the side that handles a delivery)", ZH: "消费端", Rejected: []string{"消费者", "消费方"}, Allow: []string{"消费者组"}},
	{EN: "consumer group", ZH: "消费者组", Rejected: []string{"消费组"}},
	{EN: "broker", ZH: "消息代理", Rejected: []string{"代理", "中间件", "broker"}, Allow: []string{"消息代理"}},
	{EN: "producer", ZH: "生产者", Rejected: []string{"生产方", "producer"}},
	{EN: "idempotent, idempotency", ZH: "幂等", Rejected: []string{"等幂", "idempotent"}},
	{EN: "exactly once", ZH: "恰好一次", Rejected: []string{"精确一次", "仅一次", "正好一次", "exactly-once"}},
	{EN: "at least once", ZH: "至少一次", Rejected: []string{"最少一次"}},
	{EN: "dedup table (the keys the consumer has applied)", ZH: "去重表", Rejected: []string{"幂等表", "去重记录表"}},
	{EN: "dedup key", ZH: "去重键", Rejected: []string{"幂等键", "去重 key", "去重标识", "dedup"}},
	{EN: "outbox sequence (Message.Seq)", ZH: "发件箱序号", Rejected: []string{"发件箱序列号", "outbox 序号", "生产者序号", "outbox"}},
	{EN: "delivery, deliver", ZH: "投递", Rejected: []string{"传递消息"}},
	{EN: "redelivery (the broker delivers an unacked message again)", ZH: "重投", Rejected: []string{"重新投递", "再投递", "再次投递", "redelivery"}},
	{EN: "ack (the consumer tells the broker a message is handled)", ZH: "确认", Rejected: []string{"应答", "回执", "ack"}},
	{EN: "lost ack", ZH: "确认丢失", Rejected: []string{"丢确认", "ack 丢失"}},
	{EN: "effect (the payment a message makes)", ZH: "效果", Rejected: []string{"副作用", "effect"}},
	{EN: "applied (an effect takes place)", ZH: "生效", Rejected: []string{"落地"}},
	{EN: "suppressed (a duplicate stopped by a dedup key)", ZH: "拦下", Rejected: []string{"抑制", "suppressed"}},
	{EN: "prune (forget old dedup keys)", ZH: "清理", Rejected: []string{"修剪", "裁剪"}},
	{EN: "retention window", ZH: "保留窗口", Rejected: []string{"保存窗口"}},
	{EN: "ledger", ZH: "账本", Rejected: []string{"分类账"}},
	{EN: "balance", ZH: "余额", Rejected: []string{"结余", "balance"}},
	{EN: "crash (an injected one)", ZH: "崩溃", Rejected: []string{"simulated", "宕机"}},

	// §8.3: order, replay, dead letters, reconciliation.
	{EN: "projection", ZH: "投影", Rejected: []string{"投射", "读模型"}},
	{EN: "apply (an event to the projection)", ZH: "应用", Rejected: []string{"套用"}},
	{EN: "partition", ZH: "分区", Rejected: []string{"partition"}},
	{EN: "offset", ZH: "偏移量", Rejected: []string{"偏移", "位移"}, Allow: []string{"偏移量"}},
	{EN: "replay", ZH: "重放", Rejected: []string{"回放", "重演"}},
	{EN: "poison message", ZH: "毒消息", Rejected: []string{"毒丸", "毒事件"}},
	{EN: "retry budget", ZH: "重试预算", Rejected: []string{"重试次数上限", "重试配额"}},
	{EN: "dead letter, dead-letter queue", ZH: "死信队列", Rejected: []string{"死信箱", "死信队伍"}},
	{EN: "reconcile, reconciliation", ZH: "对账", Rejected: []string{"调和", "协调"}},
	{EN: "source of truth", ZH: "事实来源", Rejected: []string{"权威数据源", "权威来源", "真相源", "真实来源", "数据源"}},

	// §11.2: shards, reruns, checkpoints, leases.
	{EN: "shard", ZH: "分片", Rejected: []string{"切片", "shard"}},
	{EN: "rerun (a shard run again from its checkpoint)", ZH: "重跑", Rejected: []string{"重新执行", "rerun"}},
	{EN: "checkpoint", ZH: "检查点", Rejected: []string{"存档点", "断点"}},
	{EN: "commit (a checkpoint)", ZH: "提交", Rejected: []string{"落盘"}},
	{EN: "lease", ZH: "租约", Rejected: []string{"租赁", "lease"}},
	{EN: "epoch (the shard lease's term)", ZH: "纪元", Rejected: []string{"任期", "世代", "代次"}},
	{EN: "fencing, fence", ZH: "围栏", Rejected: []string{"隔离", "栅栏", "防护栏", "fencing", "fence"}},
	{EN: "worker", ZH: "工作进程", Rejected: []string{"工作者", "工人", "执行者", "worker"}},
	{EN: "lease holder, owner", ZH: "持有者", Rejected: []string{"所有者", "属主", "owner"}},
	{EN: "takeover", ZH: "接管", Rejected: []string{"takeover"}},
	{EN: "zombie (a worker whose lease expired, still running)", ZH: "僵尸", Rejected: []string{"僵尸进程", "zombie"}},
	{EN: "stall", ZH: "停顿", Rejected: []string{"卡死", "stall"}},
	{EN: "sink (the side-effect boundary, Sink)", ZH: "下游", Rejected: []string{"汇点", "接收端", "sink"}},
	{EN: "business key", ZH: "业务键", Rejected: []string{"业务主键"}},

	// archlab's own words.
	{EN: "lab (archlab: its expectations, its fence)", ZH: "实验", Rejected: []string{"实验室"}},
	{EN: "drill", ZH: "演练", Rejected: []string{"操练"}},
	{EN: "exercise (exercises/)", ZH: "练习", Rejected: []string{"习题"}},
	{EN: "lesson, check (what a drill shows)", ZH: "要点", Rejected: []string{"教训"}},
	{EN: "counter", ZH: "计数器", Rejected: []string{"counter"}},
	{EN: "timeline, trace", ZH: "时间线", Rejected: []string{"轨迹", "trace"}},
	{EN: "phase", ZH: "阶段", Rejected: []string{"phase"}},
	{EN: "harness (a section's actors and verbs)", ZH: "测试台", Rejected: []string{"harness", "测试夹具", "演练台"}},
	{EN: "reader (the actor that reads the outcome)", ZH: "读取方", Rejected: []string{"读取者"}},
	{EN: "janitor (the actor that prunes dedup keys)", ZH: "清理任务", Rejected: []string{"清理者"}},
	{EN: "schedule (one run the explorer tries: an order of deliveries and faults)", ZH: "故障序列", Rejected: []string{"调度", "排程", "schedule"}},
	{EN: "what if (a run whose parameters are not the book's)", ZH: "假如", Rejected: []string{"如果……会怎样", "what-if"}},
	{EN: "strategy", ZH: "策略"},
	{EN: "invariant", ZH: "不变式", Rejected: []string{"不变量", "invariant"}},
	{EN: "counterexample", ZH: "反例", Rejected: []string{"counterexample"}},
	{EN: "scope (the explorer's bounds)", ZH: "范围", Rejected: []string{"scope"}},
	{EN: "flags (command-line options)", ZH: "选项", Rejected: []string{"标志", "旗标", "flags", "flag"}},
	{EN: "usage", ZH: "用法", Rejected: []string{"usage"}},
}

// cjk reports whether r is Chinese: a Han character or CJK punctuation.
func cjk(r rune) bool {
	return unicode.Is(unicode.Han, r) || (r >= 0x3000 && r <= 0x303f) || (r >= 0xff00 && r <= 0xffef) || r == '“' || r == '”' || r == '…'
}

// identRune is a rune that may belong to a code identifier, a path, a flag
// or a drill name: an English word next to one is code, not prose.
func identRune(r rune) bool {
	return r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_.-/=:$`'\"*", r))
}

// asciiPunct finds ASCII punctuation in Chinese prose: a comma, colon,
// semicolon, question or exclamation mark after a Chinese character, a
// comma or semicolon before one, or a parenthesis beside one.
var asciiPunct = lazyRegexp(`\p{Han}[ ]*[,:;?!]|[,;][ ]*\p{Han}|\p{Han}[()]|[()]\p{Han}`)

// wrapped is a line break between two Chinese characters.
var wrapped = lazyRegexp(`(\p{Han})\n(\p{Han})`)

// lazyRegexp compiles expr on first use. Only the tests call Problems,
// and compiling these three (\p{Han} is a large class) at package init
// was the largest part of every archlab command's own start-up (issue 27).
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// Problems lists what is wrong with one Chinese text: a rejected variant
// of a glossary term, or ASCII punctuation in Chinese prose. Text in
// backquotes or after a "$ " command prompt is code and is skipped.
func Problems(text string) []string {
	// A term may break across the lines of a wrapped text.
	text = wrapped().ReplaceAllString(text, "$1$2")
	var out []string
	for _, line := range strings.Split(text, "\n") {
		prose := stripCode(line)
		for _, t := range Glossary {
			for _, v := range t.Rejected {
				if hasVariant(prose, v, t.Allow) {
					out = append(out, fmt.Sprintf("%q: %q is rejected; the glossary says %s for %s", strings.TrimSpace(line), v, t.ZH, t.EN))
				}
			}
		}
		if m := asciiPunct().FindString(prose); m != "" {
			out = append(out, fmt.Sprintf("%q: ASCII punctuation %q in Chinese prose; use ，：；？！（）", strings.TrimSpace(line), m))
		}
		if m := spaceAfterPunct().FindString(prose); m != "" {
			out = append(out, fmt.Sprintf("%q: a space after Chinese punctuation (%q): Chinese punctuation carries its own space", strings.TrimSpace(line), m))
		}
	}
	return out
}

// spaceAfterPunct is a space after a full-width punctuation mark, which
// already takes a full cell: "。 balance=2599".
var spaceAfterPunct = lazyRegexp(`[，。、；：！？（）“”] +[^ ]`)

// stripCode blanks what a line holds as code: a command after "$ ", a
// text in backquotes, an indented example line with no Chinese.
func stripCode(line string) string {
	if strings.HasPrefix(strings.TrimSpace(line), "$ ") || strings.HasPrefix(strings.TrimSpace(line), "archlab ") || strings.HasPrefix(strings.TrimSpace(line), "go run ") {
		return ""
	}
	var b strings.Builder
	in := false
	for _, r := range line {
		if r == '`' {
			in = !in
			b.WriteRune(' ')
			continue
		}
		if in {
			b.WriteRune(' ')
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// hasVariant reports whether prose holds the variant v outside the allowed
// phrases. An ASCII variant counts only as a whole word of prose.
func hasVariant(prose, v string, allow []string) bool {
	for _, a := range allow {
		prose = strings.ReplaceAll(prose, a, strings.Repeat("\x00", len(a)))
	}
	ascii := true
	for _, r := range v {
		if r >= unicode.MaxASCII {
			ascii = false
		}
	}
	for i := 0; ; {
		j := strings.Index(prose[i:], v)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(v)
		if !ascii {
			return true
		}
		before, after := rune(' '), rune(' ')
		if j > 0 {
			before = rune(prose[j-1])
		}
		if end < len(prose) {
			after = rune(prose[end])
		}
		// A word before "(" is a call: code.
		if !identRune(before) && !identRune(after) && after != '(' {
			return true
		}
		i = end
	}
}
