# OpenBench and `make` users: builds the engine binary as $(EXE).
#   make                 ./rookery
#   make EXE=/tmp/x      /tmp/x, then `/tmp/x bench` prints `N nodes M nps` last
# The binary is tuned for the building machine (target-cpu=native); `cargo build --release`
# gives the portable one.

EXE ?= rookery
CARGO ?= cargo

.PHONY: all clean

all:
	$(CARGO) rustc --release --bin rookery -- -C target-cpu=native --emit link=$(EXE)

clean:
	$(CARGO) clean
