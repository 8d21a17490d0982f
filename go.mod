module github.com/urlls/urlls

go 1.26
