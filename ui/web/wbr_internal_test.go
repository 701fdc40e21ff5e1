package web

import "testing"

// TestWithBreaks: a Chinese page's text gets a <wbr> between two words
// and none inside one (生效, 扣款, 收件箱, 实验); tags, attributes, and the
// text of <svg>, <script>, <title> and <textarea> stay as they are.
func TestWithBreaks(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`<p title="生效扣款">重复的效果生效一次</p>`, `<p title="生效扣款">重复<wbr>的<wbr>效果<wbr>生效<wbr>一次</p>`},
		{`<span class="tag">实验</span> 收件箱`, `<span class="tag">实验</span> 收件箱`},
		{`<svg><text>生效一次</text></svg><b>扣款失败</b>`, `<svg><text>生效一次</text></svg><b>扣款<wbr>失败</b>`},
		{`<title>生效一次</title><textarea>生效一次</textarea><script>var a = "生效一次";</script>`, `<title>生效一次</title><textarea>生效一次</textarea><script>var a = "生效一次";</script>`},
		{`a &amp; b <br/>balance=2599`, `a &amp; b <br/>balance=2599`},
		{`<p>unclosed <`, `<p>unclosed <`},
	} {
		if got := string(withBreaks([]byte(tt.in))); got != tt.want {
			t.Errorf("withBreaks(%q)\n = %q\nwant %q", tt.in, got, tt.want)
		}
	}
}
