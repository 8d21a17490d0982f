module github.com/urlls/urlls

go 1.26

require (
	github.com/google/go-cmp v0.7.0
	github.com/owenrumney/go-sarif/v2 v2.3.3
	golang.org/x/tools v0.39.0
)
