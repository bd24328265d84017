module github.com/suncat-go/suncat

go 1.26.8

require (
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/tools v0.52.0
)

require (
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
