#!/usr/bin/env bash
# make proto: regenerates the Go code of every .proto under session/ and p2p/.
# protoc comes from Debian's protobuf-compiler (installed only when missing);
# protoc-gen-go is built from the google.golang.org/protobuf version pinned in go.mod,
# so the generated code always matches the runtime it links against.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v protoc >/dev/null 2>&1; then
  sudo=(); [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends protobuf-compiler
fi
mkdir -p bin
go build -o bin/protoc-gen-go google.golang.org/protobuf/cmd/protoc-gen-go
for proto in $(find session p2p -name '*.proto'); do
  dir=$(dirname "$proto")
  protoc --plugin=protoc-gen-go=bin/protoc-gen-go -I "$dir" --go_out="$dir" --go_opt=paths=source_relative "$proto"
  echo "proto: generated $dir from $proto"
done
