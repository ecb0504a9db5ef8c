# The two commands a newcomer needs:
#   make run    runs the default model through the CLI
#   make test   installs what the tests need, then runs every test and fuzz target
.PHONY: run test unit fuzz bench deps

run:
	go run ./cmd/fabricmodel run

deps:
	bash scripts/install-test-deps.sh

unit:
	bash scripts/unit.sh

fuzz:
	bash scripts/fuzz.sh

test: deps fuzz unit

bench:
	go test -run '^$$' -bench . -benchmem ./...
