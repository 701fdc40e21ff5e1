package i18n

// modelZH is modelEN in Chinese.
var modelZH = map[string]string{}
