module hostfall

go 1.26

require (
	github.com/gopxl/beep/v2 v2.1.1
	google.golang.org/protobuf v1.36.10
)

require (
	github.com/ebitengine/oto/v3 v3.3.2 // indirect
	github.com/ebitengine/purego v0.8.0 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	golang.org/x/sys v0.25.0 // indirect
)
