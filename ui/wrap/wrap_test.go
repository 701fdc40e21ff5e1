package wrap

import (
	"slices"
	"strings"
	"testing"
	"unicode"

	"archlab/i18n"
)

// TestWords: the runs the first hour found broken inside a word are cut
// between words, with the fewest pieces.
func TestWords(t *testing.T) {
	for _, tt := range []struct{ run, want string }{
		{"条要点成立", "条 要点 成立"},
		{"同一本地事务", "同一 本地 事务"},
		{"实验", "实验"},
		{"故障序列数", "故障序列 数"},
		{"确认尝试", "确认 尝试"},
		{"去重键与付款", "去重键 与 付款"},
		{"记下去重键", "记下 去重键"}, // a glossary term wins: not 记下去 重 键
		{"比重跑重放", "比 重跑 重放"},
		// The second walk's (issue 42): 另|一个, 文|档, 每|一种, 收件|箱.
		{"另一个", "另一个"},
		{"见文档", "见 文档"},
		{"每一种故障序列", "每一种 故障序列"},
		{"收件箱表", "收件箱 表"},
		// The walk again: texts added since words.txt was made (issues
		// 43 to 45) broke inside 看|到, 文件|夹, 到|期.
		{"没有看到损害", "没有 看到 损害"},
		{"班级文件夹", "班级 文件夹"},
		{"租约到期", "租约 到期"},
		{"", ""},
		{"龘", "龘"}, // no word: a character alone
	} {
		if got := strings.Join(Words(tt.run), " "); got != tt.want {
			t.Errorf("Words(%q) = %q, want %q", tt.run, got, tt.want)
		}
	}
}

// TestPieces: where a word of text may break. Each case is the pieces
// joined by "|".
func TestPieces(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"去重键与付款写在同一本地事务里，重投被拦下。", "去重键|与|付款|写|在|同一|本地|事务|里，|重投|被|拦下。"},
		{"（ErrAckLost）", "（ErrAckLost）"}, // no break after （ or before ）
		{"确认丢失（ErrAckLost）", "确认丢失|（ErrAckLost）"},
		{"消费端的本地存储", "消费端|的|本地|存储"}, // not 消费|端的
		{"《后端架构设计·分布式与数据一致性》的配套", "《后端架构设计·分布式与数据一致性》|的|配套"},
		{"“完成”之后", "“完成”|之后"},
		{"balance=2599", "balance=2599"}, // no Chinese: never cut
		{"don’t", "don’t"},
		{"第3步", "第|3|步"},
		{"", ""},
	} {
		got := Pieces(tt.in)
		if strings.Join(got, "") != tt.in {
			t.Fatalf("Pieces(%q) = %q: joined, not the text", tt.in, got)
		}
		if g := strings.Join(got, "|"); g != tt.want {
			t.Errorf("Pieces(%q) = %q, want %q", tt.in, g, tt.want)
		}
	}
}

// TestGlossaryWhole: no piece boundary falls inside a glossary term, in
// any text of the zh catalogue: the property the terminal and the page rely
// on, checked on every Chinese text archlab prints.
func TestGlossaryWhole(t *testing.T) {
	var terms []string
	for _, g := range i18n.Glossary {
		if IsWord(g.ZH) {
			terms = append(terms, g.ZH)
		}
	}
	if len(terms) < 40 {
		t.Fatalf("only %d glossary terms in the dictionary", len(terms))
	}
	texts := 0
	for _, k := range i18n.Keys(i18n.ZH) {
		text := i18n.T(i18n.ZH, k)
		for _, f := range strings.Fields(text) {
			texts++
			ps := Pieces(f)
			at := 0
			var cuts []int
			for _, p := range ps[:max(len(ps)-1, 0)] {
				at += len(p)
				cuts = append(cuts, at)
			}
			for _, term := range terms {
				for i := 0; ; {
					j := strings.Index(f[i:], term)
					if j < 0 {
						break
					}
					j += i
					for _, c := range cuts {
						if c > j && c < j+len(term) {
							t.Errorf("%s: %q is cut inside %s: %q", k, f, term, strings.Join(ps, "|"))
						}
					}
					i = j + len(term)
				}
			}
			for _, p := range ps[1:] {
				if r := []rune(p)[0]; IsClosing(r) {
					t.Errorf("%s: %q: a piece starts with %q", k, f, r)
				}
			}
		}
	}
	if texts < 1000 {
		t.Fatalf("only %d texts checked", texts)
	}
}

// TestWordsFile: words.txt is sorted, has no duplicates, and holds only
// Han words of two to maxWord characters.
func TestWordsFile(t *testing.T) {
	var words []string
	for _, l := range strings.Split(wordsFile, "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		rs := []rune(l)
		if len(rs) < 2 || len(rs) > maxWord {
			t.Errorf("%q: a word has 2 to %d characters", l, maxWord)
		}
		for _, r := range rs {
			if !unicode.Is(unicode.Han, r) {
				t.Errorf("%q: not a Han word", l)
				break
			}
		}
		words = append(words, l)
	}
	if !slices.IsSorted(words) {
		t.Error("words.txt is not sorted")
	}
	if len(slices.Compact(slices.Clone(words))) != len(words) {
		t.Error("words.txt has a duplicate")
	}
}

// BenchmarkPieces: a paragraph of Chinese, cut as the terminal cuts it.
func BenchmarkPieces(b *testing.B) {
	text := ""
	for _, k := range i18n.Keys(i18n.ZH)[:50] {
		text += i18n.T(i18n.ZH, k)
	}
	fields := strings.Fields(text)
	for b.Loop() {
		for _, f := range fields {
			Pieces(f)
		}
	}
}
