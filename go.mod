module hostfall

go 1.26

require (
	github.com/gopxl/beep/v2 v2.1.1
	github.com/gopxl/pixel/v2 v2.3.0
	golang.org/x/image v0.19.0
	google.golang.org/protobuf v1.36.10
)

require (
	github.com/ebitengine/oto/v3 v3.3.2 // indirect
	github.com/ebitengine/purego v0.8.0 // indirect
	github.com/go-gl/gl v0.0.0-20231021071112-07e5d0ea2e71 // indirect
	github.com/go-gl/glfw/v3.3/glfw v0.0.0-20240506104042-037f3cc74f2a // indirect
	github.com/go-gl/mathgl v1.1.0 // indirect
	github.com/gopxl/glhf/v2 v2.0.0 // indirect
	github.com/gopxl/mainthread/v2 v2.1.1 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	golang.org/x/sys v0.25.0 // indirect
	golang.org/x/text v0.17.0 // indirect
)
