# OpenBench and `make` users: builds the engine binary as $(EXE).
#   make                 ./rookery
#   make EXE=/tmp/x      /tmp/x, then `/tmp/x bench` prints `N nodes M nps` last
# The binary is built for the building machine (target-cpu=native), as OpenBench expects;
# `cargo build --release` gives the portable one, which was the faster of the two on the
# development machine (CONTRIBUTING.md, "Speed").
#   make release         release/rookery-X.Y.Z-linux-x86-64-v1 ... -v4, the Windows .exe of
#                        each level, LICENSE and SHA256SUMS, each binary checked against
#                        the portable build's bench (tools/ci/release.sh)

EXE ?= rookery
CARGO ?= cargo

.PHONY: all clean release

all:
	$(CARGO) rustc --release --bin rookery -- -C target-cpu=native --emit link=$(EXE)

release:
	CARGO=$(CARGO) tools/ci/release.sh

clean:
	$(CARGO) clean
