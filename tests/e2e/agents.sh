# Real agent CLIs, offline, against tests/e2e/model_server.py.
# Source it after tests/lib.sh (which sets TMP and cds into it):
#
#   . "$HOOKSHIM_TOP/tests/lib.sh"
#   . "$HOOKSHIM_TOP/tests/e2e/agents.sh"
#   e2e_require smoke                # npm ci if needed, or SKIP and exit 0
#   e2e_script "$TMP/s.json" '{"tool":"shell","input":{"command":"ls"}}' '{"text":"done"}'
#   e2e_server_start "$TMP/s.json" "$TMP/rec.jsonl"
#   out=$(e2e_agent claude "do it"); rc=$?
#   AGENT_PREFIX=("$HOOKSHIM" run -c "$TMP/hooks.json" --)
#   out=$(e2e_agent pi "do it"); rc=$?; AGENT_PREFIX=()
#   e2e_results "$TMP/rec.jsonl"     # the tool results the model saw
#   e2e_server_stop
#
# Agents: claude (Claude Code 2.1.332, native Bun binary), claude-2.1.100
# and claude-2.0.0 (Claude Code's node cli.js, npm aliases claude-code-V),
# gemini (Gemini CLI), qwen (Qwen Code), codex (Codex, static musl binary)
# qwen-0.15.10 (an older Qwen Code, npm alias qwen-code-V), pi
# (pi-coding-agent, node), opencode (a Bun-compiled binary) and copilot
# (GitHub Copilot CLI, a node single-executable binary).  Each agent is exec'ed directly: [env -i] [timeout] PREFIX... AGENT,
# so with a prefix of `hookshim run -c F --` hookshim's child is the agent
# binary itself (the claude ELF, or node running pi's cli.js).
#
# Knobs (all optional):
#   AGENT_PREFIX=(...)  command words put in front of the agent
#   AGENT_ENV=(K=V ...) extra environment for the agent (and the prefix)
#   E2E_TIMEOUT         seconds before the agent is killed (default 180)
#   E2E_PI_API          pi's wire API: openai-completions (default),
#                       openai-responses or anthropic-messages
#   E2E_AGENTS          agents the tests iterate over (default: all of the
#                       above)
#   E2E_CODEX_SANDBOX   run Codex in this sandbox mode (workspace-write,
#                       read-only) with approvals "never", instead of
#                       --dangerously-bypass-approvals-and-sandbox
# Every agent run gets a fresh HOME/config dir under $E2E_WORK; nothing from
# the machine's environment reaches it except PATH, LANG/LC_*, TMPDIR, TERM
# and HOOKSHIM_* (env -i), so a developer's own API keys never leak in.

# A library, not a test: tests/run.sh runs every tests/e2e/*.sh, so say
# nothing and succeed when executed instead of sourced.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then exit 0; fi

E2E_DIR=${HOOKSHIM_TOP:?HOOKSHIM_TOP unset}/tests/e2e
E2E_WORK=${TMP:-$(mktemp -d /tmp/hookshim-e2e.XXXXXX)}/.e2e
mkdir -p "$E2E_WORK"
E2E_AGENTS=${E2E_AGENTS:-claude claude-2.1.100 claude-2.0.0 gemini qwen qwen-0.15.10 codex pi opencode copilot}
E2E_TIMEOUT=${E2E_TIMEOUT:-180}
E2E_PI_API=${E2E_PI_API:-openai-completions}
# Claude Code ships its native (Bun) binary in a per-platform optional
# dependency; run that ELF directly rather than the bin/claude.exe copy that
# the package's postinstall makes.
case $(uname -m) in aarch64|arm64) _e2e_arch=arm64 ;; *) _e2e_arch=x64 ;; esac
if ldd --version 2>&1 | grep -qi musl; then _e2e_arch=$_e2e_arch-musl; fi
E2E_CLAUDE_BIN=$E2E_DIR/node_modules/@anthropic-ai/claude-code-linux-$_e2e_arch/claude
E2E_PI_CLI=$E2E_DIR/node_modules/@mariozechner/pi-coding-agent/dist/cli.js
E2E_GEMINI_CLI=$E2E_DIR/node_modules/@google/gemini-cli/bundle/gemini.js
E2E_QWEN_CLI=$E2E_DIR/node_modules/@qwen-code/qwen-code/cli.js
case $_e2e_arch in x64*) _e2e_triple=x86_64 ;; *) _e2e_triple=aarch64 ;; esac
E2E_CODEX_BIN=$E2E_DIR/node_modules/@openai/codex-linux-${_e2e_arch%-musl}/vendor/$_e2e_triple-unknown-linux-musl/bin/codex
# opencode and Copilot CLI ship their binaries in per-platform packages.
E2E_OPENCODE_BIN=$E2E_DIR/node_modules/opencode-linux-$_e2e_arch/bin/opencode
case $_e2e_arch in
*-musl) _e2e_copilot=linuxmusl-${_e2e_arch%-musl} ;;
*) _e2e_copilot=linux-$_e2e_arch ;;
esac
E2E_COPILOT_BIN=$E2E_DIR/node_modules/@github/copilot-$_e2e_copilot/copilot
# Older Claude Code versions (node cli.js), as npm aliases claude-code-V,
# and an older Qwen Code, qwen-code-V.
E2E_CLAUDE_OLD="2.1.100 2.0.0"
E2E_QWEN_OLD="0.15.10"
E2E_SKIP_REASON=
E2E_SERVER_PID=
E2E_PORT=
AGENT_PREFIX=()
AGENT_ENV=()

# Stop our server too when lib.sh's EXIT trap removes $TMP.
_e2e_prev_trap=$(trap -p EXIT | sed -e "s/^trap -- '//" -e "s/' EXIT\$//")
# shellcheck disable=SC2064
trap "e2e_server_stop; ${_e2e_prev_trap:-:}" EXIT

_e2e_agents_present() {
	local v
	[ -x "$E2E_CLAUDE_BIN" ] && [ -f "$E2E_PI_CLI" ] &&
		[ -f "$E2E_GEMINI_CLI" ] && [ -f "$E2E_QWEN_CLI" ] &&
		[ -x "$E2E_CODEX_BIN" ] && [ -x "$E2E_OPENCODE_BIN" ] &&
		[ -x "$E2E_COPILOT_BIN" ] || return 1
	for v in $E2E_CLAUDE_OLD; do
		[ -f "$E2E_DIR/node_modules/claude-code-$v/cli.js" ] || return 1
	done
	for v in $E2E_QWEN_OLD; do
		[ -f "$E2E_DIR/node_modules/qwen-code-$v/cli.js" ] || return 1
	done
}

_e2e_installed_ok() {
	_e2e_agents_present &&
		[ -f "$E2E_DIR/node_modules/.e2e-lock-sum" ] &&
		[ "$(cat "$E2E_DIR/node_modules/.e2e-lock-sum")" = \
			"$(sha256sum <"$E2E_DIR/package-lock.json")" ]
}

# e2e_install: npm ci in tests/e2e when node_modules is missing or was
# installed from another package-lock.json.  Returns 1 and sets
# E2E_SKIP_REASON when it cannot (no npm, registry unreachable, ci failed).
e2e_install() {
	_e2e_installed_ok && return 0
	if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
		E2E_SKIP_REASON="node/npm not installed"; return 1
	fi
	(
		flock 9
		_e2e_installed_ok && exit 0
		if ! timeout 60 npm ping >/dev/null 2>&1; then
			exit 3
		fi
		# npm ci refuses this lock ("Missing: @teddyzhu/clipboard-darwin-
		# arm64@ from lock file": Qwen Code lists other platforms'
		# clipboard packages that npm does not lock); npm install then
		# installs the locked versions without rewriting the lock.
		cd "$E2E_DIR" &&
			{ timeout 900 npm ci --no-audit --no-fund --loglevel=error \
				>"$E2E_WORK/npm-ci.log" 2>&1 ||
			  timeout 900 npm install --no-save --no-audit --no-fund \
				--loglevel=error >>"$E2E_WORK/npm-ci.log" 2>&1; } || exit 4
		_e2e_agents_present || exit 5
		sha256sum <"$E2E_DIR/package-lock.json" >"$E2E_DIR/node_modules/.e2e-lock-sum"
	) 9>/tmp/hookshim-e2e-npm-install.lock
	case $? in
	0) return 0 ;;
	3) E2E_SKIP_REASON="npm registry unreachable" ;;
	4) E2E_SKIP_REASON="npm ci failed: $(tail -3 "$E2E_WORK/npm-ci.log" | tr '\n' ' ')" ;;
	*) E2E_SKIP_REASON="agent binaries missing after npm ci" ;;
	esac
	return 1
}

# e2e_require NAME: install, or print "SKIP NAME: reason" and exit 0.
e2e_require() {
	if ! e2e_install; then
		echo "SKIP $1: $E2E_SKIP_REASON"
		exit 0
	fi
}

# e2e_script FILE TURN...: writes a script file, one JSON turn per argument.
e2e_script() {
	local f=$1; shift
	local IFS=,
	printf '[%s]\n' "$*" >"$f"
}

# e2e_server_start SCRIPT RECORD: starts the fake model server on a free
# port of 127.0.0.1; sets E2E_PORT and E2E_SERVER_PID.  Its log is
# RECORD.log.  Restarts it if one is already running.
e2e_server_start() {
	local script=$1 record=$2 pf
	e2e_server_stop
	pf=$(mktemp "$E2E_WORK/port.XXXXXX"); rm -f "$pf"
	python3 "$E2E_DIR/model_server.py" serve --script "$script" \
		--record "$record" --port-file "$pf" >"$record.log" 2>&1 &
	E2E_SERVER_PID=$!
	local i
	for i in $(seq 100); do
		[ -s "$pf" ] && break
		kill -0 "$E2E_SERVER_PID" 2>/dev/null || break
		sleep 0.1
	done
	if ! [ -s "$pf" ]; then
		echo "# model server did not start: $(cat "$record.log")"
		E2E_SERVER_PID=; return 1
	fi
	E2E_PORT=$(cat "$pf")
}

e2e_server_stop() {
	if [ -n "${E2E_SERVER_PID:-}" ]; then
		kill "$E2E_SERVER_PID" 2>/dev/null
		wait "$E2E_SERVER_PID" 2>/dev/null
	fi
	E2E_SERVER_PID=
	return 0
}

# e2e_session SCRIPT RECORD DIR AGENT PROMPT [ARGS...]: one session of
# AGENT (behind AGENT_PREFIX when set) in DIR against the model server
# playing SCRIPT, recording into RECORD; the agent's stdout on ours, its
# stderr in RECORD.err. Its exit status, or 125 when the model server did
# not start.
e2e_session() {
	local rc
	e2e_server_start "$1" "$2" >&2 || return 125
	(cd "$3" && e2e_agent "$4" "$5" "${@:6}" 2>"$2.err")
	rc=$?
	e2e_server_stop
	return $rc
}

# e2e_results RECORD [--index N|--json]: tool results the agent sent back,
# in order ("--- tool_result I NAME ID" headers, then the text).
e2e_results() { python3 "$E2E_DIR/model_server.py" results "$@"; }
# e2e_result RECORD N: text of tool result N (0-based) only.
e2e_result() { python3 "$E2E_DIR/model_server.py" results "$1" --index "$2"; }
# e2e_requests RECORD: one summary line per request (kind/turn/model/tools).
e2e_requests() { python3 "$E2E_DIR/model_server.py" requests "$1"; }

# Environment every agent run starts from.
_e2e_base_env() {
	local v
	printf '%s\n' "PATH=${PATH}" "TERM=dumb" "NO_COLOR=1" "LANG=${LANG:-C.UTF-8}"
	[ -n "${TMPDIR:-}" ] && printf '%s\n' "TMPDIR=$TMPDIR"
	for v in $(compgen -e); do
		case $v in HOOKSHIM*|LC_*) printf '%s=%s\n' "$v" "${!v}" ;; esac
	done
}

# _e2e_exec HOME ENV... -- ARGV...: env -i, timeout, prefix, agent.
_e2e_exec() {
	local -a envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	local -a base
	mapfile -t base < <(_e2e_base_env)
	env -i "${base[@]}" "${envs[@]}" "${AGENT_ENV[@]}" \
		timeout -k 10 "$E2E_TIMEOUT" "${AGENT_PREFIX[@]}" "$@"
}

# _e2e_home NAME: a fresh home directory for the agent; E2E_AGENT_HOME
# names it instead (a test that must know it before the agent runs).
_e2e_home() {
	local h
	if [ -n "${E2E_AGENT_HOME:-}" ]; then
		h=$E2E_AGENT_HOME
		mkdir -p "$h"
	else
		h=$(mktemp -d "$E2E_WORK/home-$1.XXXXXX")
	fi
	# the XDG base directories every desktop's home has
	mkdir -p "$h/.config" "$h/.local/share" "$h/.local/state" "$h/.cache"
	echo "$h"
}

# e2e_claude PROMPT [ARGS...]: Claude Code in print mode.  Runs Bash, Write
# and Edit without asking: --dangerously-skip-permissions, which as root is
# refused ("cannot be used with root/sudo privileges") unless IS_SANDBOX=1.
e2e_claude() {
	_e2e_claude_run "$E2E_CLAUDE_BIN" -- "$@"
}

# _e2e_claude_run EXE... -- PROMPT [ARGS...] is e2e_claude with another
# Claude Code executable (node cli.js of an older version).
_e2e_claude_run() {
	local -a exe=()
	while [ "$1" != -- ]; do exe+=("$1"); shift; done
	shift
	local prompt=$1; shift
	[ -n "$E2E_PORT" ] || { echo "e2e_claude: no model server" >&2; return 125; }
	local h; h=$(_e2e_home claude)
	_e2e_exec \
		HOME="$h" CLAUDE_CONFIG_DIR="$h/.claude" USER=root SHELL=/bin/bash \
		ANTHROPIC_BASE_URL="http://127.0.0.1:$E2E_PORT" \
		ANTHROPIC_API_KEY=sk-ant-hookshim-e2e \
		IS_SANDBOX=1 \
		DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 \
		DISABLE_BUG_COMMAND=1 DISABLE_COST_WARNINGS=1 \
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
		CLAUDE_CODE_DISABLE_TERMINAL_TITLE=1 CLAUDE_CODE_ENABLE_TELEMETRY=0 \
		CLAUDE_CODE_IDE_SKIP_AUTO_INSTALL=1 \
		-- "${exe[@]}" -p "$prompt" --dangerously-skip-permissions \
		"$@" </dev/null
}

# e2e_pi PROMPT [ARGS...]: pi-coding-agent in print mode, with a custom
# provider "hookshim-fake" (model "fake-model") pointing at the server.
e2e_pi() {
	local prompt=$1; shift
	[ -n "$E2E_PORT" ] || { echo "e2e_pi: no model server" >&2; return 125; }
	local h base; h=$(_e2e_home pi)
	case $E2E_PI_API in
	anthropic-messages) base="http://127.0.0.1:$E2E_PORT" ;;
	*) base="http://127.0.0.1:$E2E_PORT/v1" ;;
	esac
	mkdir -p "$h/.pi/agent"
	cat >"$h/.pi/agent/models.json" <<-EOF
	{"providers": {"hookshim-fake": {
	  "baseUrl": "$base", "api": "$E2E_PI_API", "apiKey": "sk-hookshim-e2e",
	  "compat": {"supportsDeveloperRole": false, "supportsReasoningEffort": false},
	  "models": [{"id": "fake-model", "reasoning": false,
	              "contextWindow": 128000, "maxTokens": 4096}]}}}
	EOF
	echo '{"enableInstallTelemetry": false}' >"$h/.pi/agent/settings.json"
	_e2e_exec \
		HOME="$h" PI_CODING_AGENT_DIR="$h/.pi/agent" USER=root SHELL=/bin/bash \
		PI_OFFLINE=1 PI_SKIP_VERSION_CHECK=1 PI_TELEMETRY=0 \
		-- "$(command -v node)" "$E2E_PI_CLI" -p --provider hookshim-fake \
		--model fake-model --no-session "$@" "$prompt" </dev/null
}

# _e2e_settings_home NAME DIR SETTINGS: a fresh HOME with DIR/settings.json.
_e2e_settings_home() {
	local h; h=$(_e2e_home "$1")
	mkdir -p "$h/$2"
	printf '%s\n' "$3" >"$h/$2/settings.json"
	echo "$h"
}

# e2e_gemini PROMPT [ARGS...]: Gemini CLI in print mode against the
# server's Gemini API (GOOGLE_GEMINI_BASE_URL), API-key auth chosen in
# settings.json, the folder trusted by GEMINI_CLI_TRUST_WORKSPACE (else
# --yolo is turned back to "default"), and an explicit model (-m) so its
# model router sends no classifier requests.
e2e_gemini() {
	local prompt=$1; shift
	[ -n "$E2E_PORT" ] || { echo "e2e_gemini: no model server" >&2; return 125; }
	local h
	h=$(_e2e_settings_home gemini .gemini '{"security":{"auth":{"selectedType":"gemini-api-key"}},"privacy":{"usageStatisticsEnabled":false},"general":{"disableAutoUpdate":true,"disableUpdateNag":true}}')
	_e2e_exec \
		HOME="$h" USER=root SHELL=/bin/bash \
		GEMINI_API_KEY=hookshim-e2e GEMINI_CLI_TRUST_WORKSPACE=true \
		GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$E2E_PORT" \
		-- "$(command -v node)" "$E2E_GEMINI_CLI" -p "$prompt" --yolo \
		-m gemini-2.5-flash "$@" </dev/null
}

# e2e_qwen PROMPT [ARGS...]: Qwen Code in print mode, OpenAI-compatible
# chat completions (OPENAI_BASE_URL/OPENAI_API_KEY/OPENAI_MODEL).
# E2E_QWEN_CLI_RUN: another version's cli.js (qwen-V in e2e_agent).
e2e_qwen() {
	local prompt=$1 cli=${E2E_QWEN_CLI_RUN:-$E2E_QWEN_CLI}; shift
	[ -n "$E2E_PORT" ] || { echo "e2e_qwen: no model server" >&2; return 125; }
	local h
	h=$(_e2e_settings_home qwen .qwen '{"security":{"auth":{"selectedType":"openai"}},"privacy":{"usageStatisticsEnabled":false},"general":{"disableAutoUpdate":true}}')
	_e2e_exec \
		HOME="$h" USER=root SHELL=/bin/bash \
		OPENAI_API_KEY=sk-hookshim-e2e OPENAI_MODEL=fake-model \
		OPENAI_BASE_URL="http://127.0.0.1:$E2E_PORT/v1" \
		QWEN_CODE_SUPPRESS_YOLO_WARNING=1 \
		-- "$(command -v node)" "$cli" -p "$prompt" --yolo \
		"$@" </dev/null
}

# e2e_codex PROMPT [ARGS...]: Codex (static musl binary) `exec`, with a
# custom provider "fake" in $CODEX_HOME/config.toml speaking the OpenAI
# Responses API to the server; no sandbox, no approvals, no session files.
# Its model metadata comes from tests/e2e/codex-models.json
# (model_catalog_json): `apply_patch_tool_type = "freeform"` is what makes
# Codex offer its own file tool, apply_patch, as OpenAI's models get it
# (the fallback metadata for an unknown model offers none).
e2e_codex() {
	local prompt=$1; shift
	[ -n "$E2E_PORT" ] || { echo "e2e_codex: no model server" >&2; return 125; }
	local h; h=$(_e2e_home codex)
	local -a mode=(--dangerously-bypass-approvals-and-sandbox)
	[ -n "${E2E_CODEX_SANDBOX:-}" ] &&
		mode=(--sandbox "$E2E_CODEX_SANDBOX" -c 'approval_policy="never"')
	mkdir -p "$h/.codex"
	cat >"$h/.codex/config.toml" <<-EOF
	model = "fake-model"
	model_provider = "fake"
	model_catalog_json = "$E2E_DIR/codex-models.json"
	[model_providers.fake]
	name = "fake"
	base_url = "http://127.0.0.1:$E2E_PORT/v1"
	env_key = "FAKE_API_KEY"
	wire_api = "responses"
	EOF
	_e2e_exec \
		HOME="$h" CODEX_HOME="$h/.codex" USER=root SHELL=/bin/bash \
		FAKE_API_KEY=sk-hookshim-e2e \
		-- "$E2E_CODEX_BIN" exec --skip-git-repo-check \
		"${mode[@]}" --ephemeral "$@" "$prompt" </dev/null
}

# e2e_opencode PROMPT [ARGS...]: opencode (a Bun-compiled binary) `run`,
# with a provider "fake" (OpenAI-compatible chat completions) in the config
# file OPENCODE_CONFIG names (not under XDG_CONFIG_HOME, which a test may
# set for hookshim); permissions allow every tool, and the
# models.dev catalogue, auto-update and LSP downloads are off, and the
# npm install of its plugin package it tries at start goes to a closed
# loopback port (it goes on without; nothing leaves the machine).
e2e_opencode() {
	local prompt=$1; shift
	[ -n "$E2E_PORT" ] || { echo "e2e_opencode: no model server" >&2; return 125; }
	local h; h=$(_e2e_home opencode)
	# its config where opencode keeps it (~/.config/opencode): a file
	# elsewhere that it rewrites would be a write of the agent's beyond
	# its own places (common/agent_place.h)
	mkdir -p "$h/.config/opencode"
	cat >"$h/.config/opencode/opencode.json" <<-EOF
	{"provider": {"fake": {"npm": "@ai-sdk/openai-compatible", "name": "fake",
	   "options": {"baseURL": "http://127.0.0.1:$E2E_PORT/v1", "apiKey": "sk-hookshim-e2e"},
	   "models": {"fake-model": {"name": "fake-model", "tool_call": true}}}},
	 "model": "fake/fake-model", "autoupdate": false, "share": "disabled",
	 "permission": {"bash": "allow", "edit": "allow", "webfetch": "deny",
	   "external_directory": "allow"}}
	EOF
	_e2e_exec \
		HOME="$h" USER=root SHELL=/bin/bash OPENCODE_CONFIG="$h/.config/opencode/opencode.json" \
		OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_AUTOUPDATE=1 \
		OPENCODE_DISABLE_LSP_DOWNLOAD=1 npm_config_registry=http://127.0.0.1:9/ \
		-- "$E2E_OPENCODE_BIN" run "$@" "$prompt" </dev/null
}

# e2e_copilot PROMPT [ARGS...]: GitHub Copilot CLI (a node single-executable
# binary) in prompt mode, offline with its own "bring your own key" provider
# (OpenAI chat completions, COPILOT_PROVIDER_BASE_URL); every tool allowed.
e2e_copilot() {
	local prompt=$1; shift
	[ -n "$E2E_PORT" ] || { echo "e2e_copilot: no model server" >&2; return 125; }
	local h; h=$(_e2e_home copilot)
	_e2e_exec \
		HOME="$h" COPILOT_HOME="$h/.copilot" USER=root SHELL=/bin/bash \
		COPILOT_OFFLINE=true COPILOT_AUTO_UPDATE=false \
		COPILOT_PROVIDER_BASE_URL="http://127.0.0.1:$E2E_PORT/v1" \
		COPILOT_PROVIDER_API_KEY=sk-hookshim-e2e COPILOT_MODEL=fake-model \
		-- "$E2E_COPILOT_BIN" -p "$prompt" --allow-all-tools \
		--disable-client-telemetry "$@" </dev/null
}

# e2e_agent NAME PROMPT [ARGS...]
e2e_agent() {
	local a=$1; shift
	case $a in
	claude) e2e_claude "$@" ;;
	claude-[0-9]*)
		_e2e_claude_run "$(command -v node)" \
			"$E2E_DIR/node_modules/claude-code-${a#claude-}/cli.js" -- "$@" ;;
	gemini) e2e_gemini "$@" ;;
	qwen) e2e_qwen "$@" ;;
	qwen-[0-9]*)
		E2E_QWEN_CLI_RUN=$E2E_DIR/node_modules/qwen-code-${a#qwen-}/cli.js \
			e2e_qwen "$@" ;;
	codex) e2e_codex "$@" ;;
	pi) e2e_pi "$@" ;;
	opencode) e2e_opencode "$@" ;;
	copilot) e2e_copilot "$@" ;;
	*) echo "e2e_agent: unknown agent $a" >&2; return 125 ;;
	esac
}

# e2e_agent_argv NAME: the agent command as it is exec'ed (for notes/logs).
e2e_agent_argv() {
	case $1 in
	claude) echo "$E2E_CLAUDE_BIN -p PROMPT --dangerously-skip-permissions" ;;
	claude-[0-9]*) echo "$(command -v node) $E2E_DIR/node_modules/claude-code-${1#claude-}/cli.js -p PROMPT --dangerously-skip-permissions" ;;
	gemini) echo "$(command -v node) $E2E_GEMINI_CLI -p PROMPT --yolo -m gemini-2.5-flash" ;;
	qwen) echo "$(command -v node) $E2E_QWEN_CLI -p PROMPT --yolo" ;;
	qwen-[0-9]*) echo "$(command -v node) $E2E_DIR/node_modules/qwen-code-${1#qwen-}/cli.js -p PROMPT --yolo" ;;
	codex) echo "$E2E_CODEX_BIN exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox --ephemeral PROMPT" ;;
	pi) echo "$(command -v node) $E2E_PI_CLI -p --provider hookshim-fake --model fake-model --no-session PROMPT" ;;
	opencode) echo "$E2E_OPENCODE_BIN run PROMPT" ;;
	copilot) echo "$E2E_COPILOT_BIN -p PROMPT --allow-all-tools --disable-client-telemetry" ;;
	esac
}
