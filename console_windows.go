//go:build windows

package main

import (
	"os"
	"syscall"
)

// The Windows game is linked as a GUI program (-H=windowsgui, see
// scripts/build.sh), so double-clicking it opens no console window. Started
// from a Command Prompt or PowerShell, the headless commands must still
// print their status lines there: at start the process attaches to its
// parent's console, if it has one, and points the standard output and
// error that are not already redirected (to a file or a pipe, which stay as
// they are) at that console. A double-clicked game has no parent console
// and stays as it is.
func init() { attachParentConsole() }

var (
	kernel32          = syscall.NewLazyDLL("kernel32.dll")
	procAttachConsole = kernel32.NewProc("AttachConsole")
	procSetStdHandle  = kernel32.NewProc("SetStdHandle")
)

const attachParentProcess = ^uintptr(0) // ATTACH_PARENT_PROCESS, (DWORD)-1

func attachParentConsole() {
	outOK, errOK := usable(syscall.STD_OUTPUT_HANDLE), usable(syscall.STD_ERROR_HANDLE)
	if outOK && errOK {
		return
	}
	if ok, _, _ := procAttachConsole.Call(attachParentProcess); ok == 0 {
		return // no parent console: started from the desktop or Explorer
	}
	if !outOK {
		os.Stdout = reopen("CONOUT$", syscall.STD_OUTPUT_HANDLE, os.Stdout)
	}
	if !errOK {
		os.Stderr = reopen("CONOUT$", syscall.STD_ERROR_HANDLE, os.Stderr)
	}
}

// usable tells whether the standard handle std leads somewhere: a console,
// a file or a pipe.
func usable(std int) bool {
	h, err := syscall.GetStdHandle(std)
	if err != nil || h == 0 || h == syscall.InvalidHandle {
		return false
	}
	t, err := syscall.GetFileType(h)
	return err == nil && t != syscall.FILE_TYPE_UNKNOWN
}

// reopen opens the console's output as the standard handle std, keeping
// old when it cannot.
func reopen(name string, std int, old *os.File) *os.File {
	f, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		return old
	}
	procSetStdHandle.Call(uintptr(uint32(std)), f.Fd())
	return f
}
