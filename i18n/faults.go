package i18n

import "archlab/harness"

// The words of the harness's fault tables live in their rows, beside what
// each fault does, so that a new fault is one row; the catalogue reads them
// from there.
var faultsEN, faultsZH = faultTexts()

func faultTexts() (en, zh map[string]string) {
	en, zh = map[string]string{}, map[string]string{}
	for key, w := range harness.Texts() {
		en[key], zh[key] = w.En, w.Zh
	}
	return en, zh
}
