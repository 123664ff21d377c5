# FaceWorker: every set-up step is a target here, so a fresh clone needs nothing by hand.
SHELL := /bin/bash
SWIFT ?= swift
CONFIG ?= release
MODELS := models
VENV := .venv-tools
PYTHON := $(VENV)/bin/python
BIN := .build/$(CONFIG)
CLIENT_VENV := .venv-client
GRPC_VENV := .venv-grpc
TASKS_VENV := .venv-tasks
GRPC_BENCH := tools/bench/grpc-bench/build/grpc-bench

.PHONY: all deps deps-client deps-test deps-bench deps-proto deps-package models build run deb test-deb test-docs bench-doc test test-swift test-install install uninstall bench bench-inference bench-pipeline bench-sampling venv proto conformance warm-frame clean help soak

all: build

help:
	@echo "FaceWorker's targets. Times are wall-clock on a 2-core machine: a first run, then (after /) a run"
	@echo "with everything in place. 'not timed' means no one has measured it yet."
	@echo ""
	@echo "Use it"
	@echo "  make run              the worker's Debian packages, XNNPACK, the models, the release worker (the"
	@echo "                        face-worker product only); starts it. A fresh clone on a quiet machine: 8.9 min"
	@echo "                        (apt 10 s, XNNPACK 2.0 min, models 3 s, resolving the Swift packages 21 s, the"
	@echo "                        worker's release build 6.3 min; 20 to 32 min beside other builds) / 2 s"
	@echo "  make deb              out/faceworker_<version>_amd64.deb: the worker built with the Swift runtime"
	@echo "                        inside it (its own scratch path, .build-deb), models, systemd units, C library."
	@echo "                        First run 7.2 min on a quiet machine (24 min with another build beside"
	@echo "                        it) / 4 min, most of it compressing 97 MB"
	@echo "  make install          the release worker, the models, the C library and the systemd units under"
	@echo "                        DESTDIR/PREFIX (/usr/local), for this machine: it loads the toolchain's Swift"
	@echo "                        runtime. First run 13.4 min / seconds"
	@echo "  make uninstall        removes what make install installed (same DESTDIR and PREFIX); seconds"
	@echo "  make build            (also make, make all) the release build of every product (CONFIG=debug for"
	@echo "                        debug); 13.3 min / seconds"
	@echo ""
	@echo "Test it"
	@echo "  make test             every test-* below, after the Debian packages they need. A fresh clone on a"
	@echo "                        quiet machine: 42 min, 17 of them test-sanitize (XNNPACK 1.7 min, the"
	@echo "                        Swift build and tests 6.5, the Python, gRPC, C and install suites 3.9, the"
	@echo "                        package 7.3, the benchmark drivers 2.6, the fuzz targets 3.6)"
	@echo "  make test-swift       the package and its tests in debug, then the Swift tests; a fresh clone on a"
	@echo "                        quiet machine 5.5 + 1.1 min / 1.1 min"
	@echo "  make test-python      the Python client against a real worker, with its environment; 1.2 min"
	@echo "  make test-grpc        grpcio and nginx with TLS against the gRPC door, with its environment; 45 s"
	@echo "  make test-c           the C client against a real worker, under valgrind; 1.7 min"
	@echo "  make test-install     make install into a scratch DESTDIR, a pkg-config program, make uninstall; 13 s"
	@echo "  make test-deb         make deb, then the package installed by dpkg into scratch roots and its worker"
	@echo "                        run with the toolchain's runtime out of reach; 7.3 min on a fresh clone"
	@echo "  make test-docs        the README's length, the documents' links, the benchmark tables; under 1 s"
	@echo "  make test-bench       every benchmark driver for a few iterations on the debug build; 2.6 min on a"
	@echo "                        fresh clone, its environments included (8 min beside other builds)"
	@echo "  make test-sanitize    the suites that touch threads and parsing under ThreadSanitizer (XNNPACK's"
	@echo "                        thread pool built with it too) and AddressSanitizer, each in its own build tree"
	@echo "                        (.build-tsan, .build-asan) of the test bundle and the worker alone; the ASan"
	@echo "                        worker under the Python and gRPC hostile-input suites, and LeakSanitizer on"
	@echo "                        the ASan worker after 3000 connections. First run: ThreadSanitizer pthreadpool"
	@echo "                        12 s, the build 5.7 min, its suites 3.4 min; AddressSanitizer (make test-asan)"
	@echo "                        the build 11.3 min beside a benchmark run, then 4.1 min (its suites 2.1 min,"
	@echo "                        the 3000 connections 1.1 min, the Python and gRPC suites 0.9 min)"
	@echo "  make test-fuzz        every fuzz target for 20 s on its corpus, built in test-asan's build tree: 3.7"
	@echo "                        min after test-asan, half a minute of it building the fuzz targets"
	@echo "  make fuzz SECONDS=N   every libFuzzer target for N seconds (600), one after another, corpora kept"
	@echo "                        in .build-asan/fuzz/corpus; a table of executions per second and coverage"
	@echo ""
	@echo "Measure it (never part of make test; docs/benchmarks.md has the goals and results)"
	@echo "  make bench            the worker against MediaPipe, every goal of docs/benchmarks.md, a results file"
	@echo "                        in benchmarks/results/; 11.6 min with the Tasks rows on a quiet machine"
	@echo "  make bench-inference  each model's invoke time against LiteRT's, 1 and 2 threads; not timed"
	@echo "  make bench-pipeline   per-frame pipeline time on a 640x360 JPEG video against MediaPipe's Python"
	@echo "                        solutions, then the frame-to-tensor crop times; not timed"
	@echo "  make bench-sampling   the crop times alone: 1920x1080 RGB/NV12 into 128/192/256 tensors; not timed"
	@echo "  make bench-doc        renders docs/benchmarks.md's tables from the kept result files; under 1 s"
	@echo "  make soak MINUTES=N   one worker restarted every 3 minutes (once killed) under clients that"
	@echo "                        reconnect: nothing lost; N minutes (30) after a release build"
	@echo ""
	@echo "Set up and regenerate"
	@echo "  make deps             the worker's Debian packages, then XNNPACK from Debian's sources into .deps/;"
	@echo "                        1.8 to 4.6 min / 1 s"
	@echo "  make deps-client, deps-test, deps-bench, deps-proto, deps-package"
	@echo "                        the Debian packages of the C client, the tests, the benchmarks, make proto,"
	@echo "                        make deb; apt's time / 1 s"
	@echo "  make models           fetches and checks the models of models.json into models/; 10 s / under 1 s"
	@echo "  make venv             the tools' Python environment (golden files, benchmark peers); not timed"
	@echo "  make proto            regenerates the committed protobuf code (builds the plugin first); not timed"
	@echo "  make conformance      regenerates the Swift constants taken from proto/faceworker/v1/defaults.json; 1 s"
	@echo "  make warm-frame       regenerates the frame the worker warms its pipelines on before it is ready; 2 s"
	@echo "  make clean            removes everything any target made: builds, .deps, models, every virtual"
	@echo "                        environment, the C client's and grpc-bench's builds, out/; seconds"

# The Debian packages the worker needs, then XNNPACK built from Debian's sources into .deps/ (only
# when missing or its pins changed). The other targets add the package groups they use.
deps:
	@scripts/install-deps.sh worker
	@scripts/build-xnnpack.sh

deps-client deps-test deps-bench deps-proto deps-package:
	@scripts/install-deps.sh $(@:deps-%=%)

models:
	@python3 scripts/fetch-models.py $(MODELS)

build: deps
	$(SWIFT) build -c $(CONFIG)

# Only the worker's product: the benchmarks and tests are not built.
run: deps models
	$(SWIFT) build -c $(CONFIG) --product face-worker
	$(BIN)/face-worker --models $(MODELS)

# The sanitizer runs and the fuzz targets come last, so a failing plain suite is known without
# waiting for their two builds: ThreadSanitizer's, and the AddressSanitizer one test-asan and
# test-fuzz share.
test: deps deps-client deps-test models test-swift test-python test-grpc test-c test-install test-deb test-docs test-bench test-sanitize test-fuzz

# Installs the worker (the release build, or CONFIG's), the models (the installed
# worker's default model directory), the C library with its header and pkg-config
# file, and the systemd units (user and system), under $(DESTDIR)$(PREFIX);
# uninstall removes exactly those files.
PREFIX ?= /usr/local
INSTALLED_MODELS := $(PREFIX)/share/faceworker/models
# Every file models.json lists, and the manifest itself, which the worker reads beside them.
MODEL_FILES = $(shell python3 -c 'import json; print(*(f["name"] for f in json.load(open("models.json"))["files"]))') manifest.json
UNITS := user/faceworker.socket user/faceworker.service system/faceworker.socket system/faceworker.service
C_INSTALLED := include/faceworker.h $(addprefix include/faceworker/adapters/,epoll.h poll.h libuv.h) lib/libfaceworker.a lib/libfaceworker.so lib/libfaceworker.so.4 lib/libfaceworker.so.2.0.0 lib/pkgconfig/faceworker.pc

install: deps deps-client models
	$(SWIFT) build -c $(CONFIG) --product face-worker
	install -D -m 755 $(BIN)/face-worker $(DESTDIR)$(PREFIX)/bin/face-worker
	install -d $(DESTDIR)$(INSTALLED_MODELS)
	for f in $(MODEL_FILES); do install -m 644 $(MODELS)/$$f $(DESTDIR)$(INSTALLED_MODELS)/; done
	$(MAKE) -C clients/c install PREFIX=$(PREFIX) DESTDIR=$(abspath $(DESTDIR))
	for unit in $(UNITS); do install -d $(DESTDIR)$(PREFIX)/lib/systemd/$$(dirname $$unit); \
		sed 's|@BINDIR@|$(PREFIX)/bin|' systemd/$$unit >$(DESTDIR)$(PREFIX)/lib/systemd/$$unit; done

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/face-worker
	rm -f $(addprefix $(DESTDIR)$(INSTALLED_MODELS)/,$(MODEL_FILES))
	-rmdir $(DESTDIR)$(INSTALLED_MODELS) $(DESTDIR)$(PREFIX)/share/faceworker 2>/dev/null
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(C_INSTALLED))
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/lib/systemd/,$(UNITS))

# make install into a temporary DESTDIR: the tree, a program built with the
# installed pkg-config file talking to the installed worker, then uninstall. It
# installs the debug build test-swift made: a release build compiles every
# dependency again, 10 of a fresh clone's make test minutes on 2 cores, and what
# this checks is the same for both.
test-install: deps deps-client models
	INSTALL_CONFIG=debug tests/install/check-install.sh

# The Debian package: the worker built with the Swift runtime inside it (its own scratch path,
# .build-deb), the models, the systemd units and the C library, into out/.
DEB = out/faceworker_$(shell sed -n 's/^Version: //p' packaging/control)_amd64.deb

deb: deps deps-client deps-package models
	MODELS=$(MODELS) SWIFT=$(SWIFT) packaging/make-deb.sh out

# The package installed into scratch roots by dpkg, and its worker run with the Swift toolchain's
# runtime out of reach (tests/install/check-deb.sh says what it checks).
test-deb: deb
	tests/install/check-deb.sh $(DEB)

# The README and docs/: the README's length, every link between the documents, nothing referred to
# outside the repository, and the benchmark tables against the committed results.
test-docs:
	python3 tests/docs/check_docs.py

# Renders docs/benchmarks.md's results from the committed files of benchmarks/results/.
bench-doc:
	python3 benchmarks/render.py

test-swift:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Python tools (golden-file generators, benchmark peers) live in their own environment.
$(VENV)/.ok: tools/requirements.txt
	python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet -r tools/requirements.txt
	touch $@

venv: deps-bench $(VENV)/.ok

# The newest MediaPipe, the peer of make bench's Tasks rows, needs NumPy 2: an environment of its own.
$(TASKS_VENV)/.ok: tools/requirements-tasks.txt
	python3 -m venv $(TASKS_VENV)
	$(TASKS_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(TASKS_VENV)/bin/python -m pip install --quiet -r tools/requirements-tasks.txt
	touch $@

bench-inference: deps models venv
	$(SWIFT) build -c release --product inference-bench
	$(PYTHON) -m tools.bench.bench_inference --models $(MODELS) --ours .build/release/inference-bench

# Every make bench* driver for a few iterations on the debug build test-swift made: each must run
# to its JSON summary, so none rots between the runs that measure. Its figures mean nothing.
.PHONY: test-bench
test-bench: deps deps-client deps-test models venv $(CLIENT_VENV)/.ok $(GRPC_VENV)/.ok $(TASKS_VENV)/.ok
	$(SWIFT) build --product face-worker
	$(SWIFT) build --product inference-bench
	$(SWIFT) build --product pipeline-bench
	$(MAKE) -C clients/c build/face-bench
	$(MAKE) -C tools/bench/grpc-bench
	tests/bench/check-benchmarks.sh

# Regenerates the committed swift-protobuf and Python code from proto/ (builds the plugin once).
proto: deps deps-proto
	scripts/gen-proto.sh

# Regenerates the committed Swift constants (option defaults and ranges, the socket rule) from
# the conformance file; the test suites check every client against the file itself.
conformance:
	python3 scripts/gen-conformance.py

# Regenerates the frame the worker warms its pipelines on before it is ready (committed).
warm-frame: venv
	$(PYTHON) scripts/make-warm-frame.py

bench-pipeline: deps models venv
	$(SWIFT) build -c release --product pipeline-bench
	$(PYTHON) -m tools.bench.bench_pipeline --frames Tests/Fixtures/video --models $(MODELS) --ours .build/release/pipeline-bench

bench-sampling: deps venv
	$(SWIFT) build -c release --product pipeline-bench
	$(PYTHON) -m tools.bench.bench_pipeline --sampling-only --ours .build/release/pipeline-bench

# One run, one table; the latency histogram goes to out/. The Python client's row runs the
# client from its own environment, the one test-python uses; the gRPC rows run grpcio from the
# one test-grpc uses (the tools' MediaPipe pins a protobuf too old for grpcio-tools' stubs).
bench: deps deps-client models venv $(CLIENT_VENV)/.ok $(GRPC_VENV)/.ok $(TASKS_VENV)/.ok
	$(SWIFT) build -c release --product face-worker
	$(MAKE) -C clients/c build/face-bench
	$(MAKE) -C tools/bench/grpc-bench
	$(PYTHON) -m tools.bench.bench --worker .build/release/face-worker --face-bench clients/c/build/face-bench \
		--client-python $(CLIENT_VENV)/bin/python --grpc-python $(GRPC_VENV)/bin/python --grpc-bench $(GRPC_BENCH) \
		--tasks-python $(TASKS_VENV)/bin/python --result-cost clients/python/benchmarks/result_cost.py \
		--models $(MODELS) --frames Tests/Fixtures/video --png out/bench-latency.png

# Not part of make test: MINUTES of clients against one worker restarted every RESTART_EVERY
# seconds under socket activation; the table, then one JSON line, go to the terminal.
MINUTES ?= 30
RESTART_EVERY ?= 180
soak: deps deps-bench models $(GRPC_VENV)/.ok
	$(SWIFT) build -c release --product face-worker
	$(GRPC_VENV)/bin/python -m tools.soak.soak --worker .build/release/face-worker --models $(MODELS) \
		--frames Tests/Fixtures/video --minutes $(MINUTES) --restart-every $(RESTART_EVERY)

# Everything any target made: builds, XNNPACK, the models, every virtual environment, the C
# client's and grpc-bench's builds, the Python client's build files, the package and out/.
clean:
	rm -rf .build .build-* .deps $(MODELS) .venv* out
	rm -rf clients/c/build tools/bench/grpc-bench/build clients/python/build clients/python/*.egg-info

# The Python client's tests, against a real face-worker, in a light environment
# built from the client's own extras.
.PHONY: test-python

$(CLIENT_VENV)/.ok: clients/python/pyproject.toml
	python3 -m venv $(CLIENT_VENV)
	$(CLIENT_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(CLIENT_VENV)/bin/python -m pip install --quiet -e 'clients/python[numpy,annotate,test]'
	touch $@

test-python: deps deps-test models $(CLIENT_VENV)/.ok
	$(SWIFT) build --product face-worker
	$(CLIENT_VENV)/bin/python -m pytest clients/python/tests

# The gRPC door, driven by grpcio with stubs grpcio-tools generates at the start of the run, beside
# the lean socket's Python client; then nginx from Debian in front of it with TLS and client
# certificates; and grpc-bench, make bench's C++ gRPC client, against the same worker. Its
# environment holds gRPC's packages and the Python client.
.PHONY: test-grpc

$(GRPC_VENV)/.ok: tests/grpc/requirements.txt clients/python/pyproject.toml
	python3 -m venv $(GRPC_VENV)
	$(GRPC_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(GRPC_VENV)/bin/python -m pip install --quiet -r tests/grpc/requirements.txt -e clients/python
	touch $@

test-grpc: deps deps-test models $(GRPC_VENV)/.ok
	$(SWIFT) build --product face-worker
	$(MAKE) -C tools/bench/grpc-bench
	$(GRPC_VENV)/bin/python -m pytest tests/grpc

# The C client's tests, against a real face-worker, under valgrind.
.PHONY: test-c

test-c: deps deps-client deps-test models
	$(SWIFT) build --product face-worker
	$(MAKE) -C clients/c test

# The sanitizer runs, each in a build tree of its own so the shared .build is never rebuilt for
# them. Only the suites that touch threads and parsing run under them: the whole suite under
# ThreadSanitizer would not fit CI's time (make help gives the costs). Swift on Linux has no
# UndefinedBehaviorSanitizer; its checked arithmetic and bounds trap in every build anyway.
# Each builds only the products it runs (the test bundle, the worker the suites start, the fuzz
# targets), never the benchmarks and examples. The scratch paths can be moved, to time cold builds.
# A filter naming a suite that was renamed or moved fails the run (scripts/sanitize/check-filters.py)
# rather than leaving that suite out unnoticed.
.PHONY: test-sanitize test-tsan test-asan fuzz test-fuzz
TSAN_SCRATCH ?= .build-tsan
ASAN_SCRATCH ?= .build-asan
SANITIZE_SUITES := InferenceTests.ThreadPool|FaceWorkerProtocolTests|ModelFileTests|ImagingTests|WorkerCoreTests\.(Concurrency|Scheduling|NamedSession|SlowSubscriber|BadInput)Tests|FaceWorkerTests\.(PartsStarted|NamedSession|SharedMemory|GracefulShutdown|BadInput|Fuzz|DrainHandlerChannel)Tests
TSAN_RUN := TSAN_OPTIONS="halt_on_error=1 suppressions=$(CURDIR)/scripts/sanitize/tsan.supp" FACEWORKER_XNNPACK=xnnpack-tsan
# AddressSanitizer: the core in-process on its fake pipeline, the doors' channel handlers, the
# parsers, and suites that start the ASan worker (TestPaths finds it beside the test bundle). Its
# build is the fuzz targets' too (scripts/sanitize/build-asan.sh). In the test processes
# LeakSanitizer stays off: what they leave at exit is XCTest's own objects (every test case it
# ran) and the test channels (EmbeddedChannel, NIOAsyncTestingChannel) the suites never finish,
# whose pipeline and handlers hold each other until closed; and Swift hides some live references
# from it (a class payload of a multi-payload enum carries tag bits, a weak reference's side
# table is pointed to from a shifted refcount word). The worker's own leaks are checked on a real
# socket instead: scripts/sanitize/connection-leaks.py opens and closes 3000 connections (sessions,
# frames in flight, broken framing), stops the worker with SIGTERM and fails on any LeakSanitizer
# report.
ASAN_SUITES := WorkerCoreTests|FaceWorkerProtocolTests|ModelFileTests|ImagingTests|InferenceTests|FaceWorkerTests\.(DrainHandlerChannel|MetricsHandlerChannel|ConnectionGate|EnginePool|PartsStarted|NamedSession|SharedMemory|GracefulShutdown|BadInput|Fuzz)Tests
ASAN_RUN := ASAN_OPTIONS="detect_leaks=0"
ASAN_WORKER := $(abspath $(ASAN_SCRATCH))/debug/face-worker

test-sanitize: test-tsan test-asan

test-tsan: deps models
	@python3 scripts/sanitize/check-filters.py '$(SANITIZE_SUITES)'
	@XNNPACK_SANITIZE=thread scripts/build-xnnpack.sh
	FACEWORKER_XNNPACK=xnnpack-tsan $(SWIFT) build --sanitize=thread --scratch-path $(TSAN_SCRATCH) --product FaceWorkerPackageTests
	FACEWORKER_XNNPACK=xnnpack-tsan $(SWIFT) build --sanitize=thread --scratch-path $(TSAN_SCRATCH) --product face-worker
	$(TSAN_RUN) $(SWIFT) test --skip-build --sanitize=thread --scratch-path $(TSAN_SCRATCH) --filter '$(SANITIZE_SUITES)'

# The ASan worker under the Python client's bad-input and shared-memory tests and the gRPC door's
# bad-input, limit and shared-memory tests (their fixtures start FACEWORKER_WORKER).
test-asan: deps deps-test models $(CLIENT_VENV)/.ok $(GRPC_VENV)/.ok
	@python3 scripts/sanitize/check-filters.py '$(ASAN_SUITES)'
	SWIFT=$(SWIFT) scripts/sanitize/build-asan.sh $(ASAN_SCRATCH) FaceWorkerPackageTests face-worker
	$(ASAN_RUN) FACEWORKER_FUZZ=1 $(SWIFT) test --skip-build --sanitize=address --scratch-path $(ASAN_SCRATCH) --filter '$(ASAN_SUITES)'
	ASAN_OPTIONS="detect_leaks=1" $(CLIENT_VENV)/bin/python scripts/sanitize/connection-leaks.py $(ASAN_WORKER) $(MODELS) 3000
	$(ASAN_RUN) FACEWORKER_WORKER=$(ASAN_WORKER) $(CLIENT_VENV)/bin/python -m pytest \
		clients/python/tests/test_errors.py clients/python/tests/test_damaged_jpeg.py clients/python/tests/test_shared_memory.py
	$(ASAN_RUN) FACEWORKER_WORKER=$(ASAN_WORKER) $(GRPC_VENV)/bin/python -m pytest \
		tests/grpc/test_bad_input.py tests/grpc/test_limits.py tests/grpc/test_shared_memory.py

# libFuzzer targets (scripts/fuzz/run.sh): the Swift ones in test-asan's build, the C client's
# reader in its own build tree.
SECONDS ?= 600
fuzz: deps deps-client models $(CLIENT_VENV)/.ok
	SWIFT=$(SWIFT) PYTHON=$(CLIENT_VENV)/bin/python ASAN_SCRATCH=$(ASAN_SCRATCH) scripts/fuzz/run.sh $(SECONDS)

test-fuzz: deps deps-client models $(CLIENT_VENV)/.ok
	SWIFT=$(SWIFT) PYTHON=$(CLIENT_VENV)/bin/python ASAN_SCRATCH=$(ASAN_SCRATCH) scripts/fuzz/run.sh 20
