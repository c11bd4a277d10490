#!/usr/bin/env python3
"""Scripted fake model server for hookshim's end-to-end tests.

Speaks, on 127.0.0.1 only:
  * Anthropic Messages      POST /v1/messages            (SSE and JSON)
                            POST /v1/messages/count_tokens
  * OpenAI chat completions POST /v1/chat/completions    (SSE and JSON)
  * OpenAI Responses        POST /v1/responses           (SSE and JSON)
  * Gemini API              POST /v1beta/models/M:generateContent,
                            :streamGenerateContent (SSE with ?alt=sse),
                            :countTokens
  * anything else: 200 with "{}" (HEAD /, GET /v1/models, telemetry pings...)

Driven by a script file (JSON): a list of turns, or {"turns": [...],
"final": "text once exhausted"}.  A turn is either
    {"tool": "shell", "input": {"command": "ls"}}     a tool call
    {"text": "all done"}                               a final text answer
A tool turn may also carry "text" (said before the call).  A freeform tool
(Responses API "custom" tool, e.g. Codex's apply_patch) takes a string:
    {"tool": "patch", "input": "*** Begin Patch\n..."}   a custom_tool_call  Tool names may be
agent-neutral ("shell", "write", "edit", "read"); they are mapped onto the
tools the request offers (Claude Code: Bash/Write/Edit/Read; pi: bash/write/
edit/read; ...), and input keys are renamed to the keys that tool's schema
uses (command/cmd, file_path/path, content, old_string/oldText, ...).

Which turn a main-loop request gets is computed from the conversation it
carries, not from a counter: turn N = the number of assistant turns already in
its history (a text-only assistant message right before a user prompt, an
agent's own canned exchange, is not one).  So retried requests get the same answer, and side requests
(title/topic generation, quota checks, bash-prefix classification: requests
without tools) never consume a turn; they get a short harmless text.

Every request is appended to the --record file as one JSON line:
    {"seq":, "method":, "path":, "kind": "main"|"side"|"other",
     "turn":, "api":, "body": <full request JSON>}

Usage:
    model_server.py serve --script S --record R [--port 0] [--port-file F]
    model_server.py results R [--json]    tool results the agent sent back
    model_server.py seen R                tool results plus any text that
                                          came back with them (hook context)
    model_server.py requests R            one line per request: kind/turn/path
"""

import argparse
import itertools
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SIDE_TEXT = "ok"
DEFAULT_FINAL = "SCRIPT-EXHAUSTED: no more scripted turns."

# Agent-neutral tool names -> candidate tool names, in order of preference.
TOOL_ALIASES = {
    "shell": ["Bash", "bash", "shell", "run_shell_command", "exec_command",
              "execute_command", "run_command", "terminal", "local_shell"],
    "write": ["Write", "write", "write_file", "create_file", "WriteFile",
              "create"],
    "edit": ["Edit", "edit", "replace", "edit_file", "str_replace",
             "apply_patch"],
    "read": ["Read", "read", "read_file", "ReadFile", "view"],
    "patch": ["apply_patch"],
}
# Groups of interchangeable input keys.
KEY_ALIASES = [
    ["command", "cmd"],
    ["file_path", "path", "filePath", "absolute_path", "filename"],
    ["content", "contents", "file_text"],
    ["old_string", "oldText", "old_str", "old_text", "oldString"],
    ["new_string", "newText", "new_str", "new_text", "newString"],
    ["description", "desc"],
]

_ids = itertools.count(1)


def new_id(prefix):
    return "%s%06d%s" % (prefix, next(_ids), os.urandom(6).hex())


# ---------------------------------------------------------------- script --

class Script:
    def __init__(self, path, final=None):
        self.path = path
        data = json.load(open(path)) if path else []
        if isinstance(data, dict):
            self.turns = data.get("turns", [])
            self.final = data.get("final", final or DEFAULT_FINAL)
        else:
            self.turns = data
            self.final = final or DEFAULT_FINAL

    def turn(self, n):
        if 0 <= n < len(self.turns):
            return self.turns[n]
        return {"text": self.final}


def tool_specs(api, body):
    """name -> set of input property names, for the tools a request offers."""
    specs = {}
    for t in body.get("tools") or []:
        if not isinstance(t, dict):
            continue
        if api == "anthropic":
            name, schema = t.get("name"), t.get("input_schema")
        elif api == "chat":
            f = t.get("function") or {}
            name, schema = f.get("name"), f.get("parameters")
        elif api == "gemini":
            for d in t.get("functionDeclarations") or []:
                if isinstance(d, dict) and d.get("name"):
                    sch = d.get("parametersJsonSchema") or d.get("parameters")
                    specs[d["name"]] = set(((sch or {}).get("properties")
                                            or {}).keys())
            continue
        else:  # responses
            name, schema = t.get("name"), t.get("parameters")
            if name is None and t.get("type") == "local_shell":
                name, schema = "local_shell", {}
        if name:
            specs[name] = set(((schema or {}).get("properties") or {}).keys())
    return specs


def resolve_tool(name, specs):
    if name in specs:
        return name
    for n in specs:
        if n.lower() == name.lower():
            return n
    for cand in TOOL_ALIASES.get(name.lower(), []):
        if cand in specs:
            return cand
    for group in TOOL_ALIASES.values():  # "Bash" in the script, "bash" offered
        if name in group or name.lower() in [g.lower() for g in group]:
            for cand in group:
                if cand in specs:
                    return cand
    return name


def map_input(inp, props):
    if not props:
        return dict(inp)
    if "edits" in props and "old_string" in inp and "new_string" in inp:
        # pi 0.73's edit: {path, edits: [{oldText, newText}]}
        inp = dict(inp)
        inp["edits"] = [{"oldText": inp.pop("old_string"),
                         "newText": inp.pop("new_string")}]
    if "instruction" in props and "old_string" in inp:
        # Gemini CLI 0.61's replace wants a description of the change
        inp = dict(inp, instruction=inp.get("description", "Apply the edit."))
    out = {}
    for k, v in inp.items():
        if k in props:
            out[k] = v
            continue
        for group in KEY_ALIASES:
            if k in group:
                hit = next((g for g in group if g in props), None)
                if hit:
                    out[hit] = v
                    break
        else:
            out[k] = v
    return out


def count_assistant_turns(api, body):
    """Groups of consecutive assistant items in the request's history."""
    if api == "responses":
        items = body.get("input")
        if not isinstance(items, list):
            return 0
        roles = []
        for it in items:
            if not isinstance(it, dict):
                continue
            ty = it.get("type", "message")
            if ty in ("function_call", "reasoning", "local_shell_call",
                      "custom_tool_call"):
                roles.append("assistant")
            elif ty == "message":
                roles.append(it.get("role"))
            else:
                roles.append("tool")
    elif api == "gemini":
        roles = ["assistant" if c.get("role") == "model" else c.get("role")
                 for c in body.get("contents") or [] if isinstance(c, dict)]
    else:
        roles = []
        for m in body.get("messages") or []:
            if not isinstance(m, dict):
                continue
            r, c = m.get("role"), m.get("content")
            blocks = [b.get("type") for b in c
                      if isinstance(b, dict)] if isinstance(c, list) else []
            if r == "assistant" and not m.get("tool_calls") and \
                    "tool_use" not in blocks:
                r = "assistant-text"
            elif r == "user" and "tool_result" not in blocks:
                r = "prompt"
            roles.append(r)
        # an agent's own exchange before the prompt (Qwen Code 0.15 sends
        # its context as a user message and a canned assistant "Got it")
        # is no turn of the script's: a text-only assistant message
        # followed by a prompt is left out
        roles = [r for i, r in enumerate(roles)
                 if not (r == "assistant-text" and i + 1 < len(roles) and
                         roles[i + 1] == "prompt")]
        roles = ["assistant" if r == "assistant-text" else r for r in roles]
    n, prev = 0, None
    for r in roles:
        if r == "assistant" and prev != "assistant":
            n += 1
        prev = r
    return n


def plan_reply(api, body, script):
    """Returns (kind, turn_index, reply) where reply is
    {"text": str|None, "tool": (id, name, input)|None}."""
    specs = tool_specs(api, body)
    if not specs:
        return "side", None, {"text": SIDE_TEXT, "tool": None}
    n = count_assistant_turns(api, body)
    t = script.turn(n)
    if "tool" in t:
        name = resolve_tool(t["tool"], specs)
        inp = t.get("input") or {}
        # A string input is a freeform (custom) tool's: passed as it is.
        if not isinstance(inp, str):
            inp = map_input(inp, specs.get(name))
        return "main", n, {"text": t.get("text"),
                           "tool": (new_id("toolu_" if api == "anthropic"
                                           else "call_"), name, inp)}
    return "main", n, {"text": t.get("text", ""), "tool": None}


# ----------------------------------------------------------- formatting --

def chunks(s, n=24):
    return [s[i:i + n] for i in range(0, len(s), n)] or [""]


def anthropic_json(model, reply):
    content = []
    if reply["text"]:
        content.append({"type": "text", "text": reply["text"]})
    if reply["tool"]:
        tid, name, inp = reply["tool"]
        content.append({"type": "tool_use", "id": tid, "name": name,
                        "input": inp})
    return {"id": new_id("msg_"), "type": "message", "role": "assistant",
            "model": model, "content": content,
            "stop_reason": "tool_use" if reply["tool"] else "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 10,
                      "cache_creation_input_tokens": 0,
                      "cache_read_input_tokens": 0}}


def anthropic_sse(model, reply):
    msg = anthropic_json(model, reply)
    start = dict(msg, content=[], stop_reason=None)
    start["usage"] = dict(msg["usage"], output_tokens=1)
    yield "message_start", {"type": "message_start", "message": start}
    yield "ping", {"type": "ping"}
    for i, block in enumerate(msg["content"]):
        if block["type"] == "text":
            yield "content_block_start", {
                "type": "content_block_start", "index": i,
                "content_block": {"type": "text", "text": ""}}
            for c in chunks(block["text"]):
                yield "content_block_delta", {
                    "type": "content_block_delta", "index": i,
                    "delta": {"type": "text_delta", "text": c}}
        else:
            yield "content_block_start", {
                "type": "content_block_start", "index": i,
                "content_block": {"type": "tool_use", "id": block["id"],
                                  "name": block["name"], "input": {}}}
            for c in chunks(json.dumps(block["input"])):
                yield "content_block_delta", {
                    "type": "content_block_delta", "index": i,
                    "delta": {"type": "input_json_delta", "partial_json": c}}
        yield "content_block_stop", {"type": "content_block_stop", "index": i}
    yield "message_delta", {
        "type": "message_delta",
        "delta": {"stop_reason": msg["stop_reason"], "stop_sequence": None},
        "usage": {"output_tokens": 10}}
    yield "message_stop", {"type": "message_stop"}


def chat_json(model, reply):
    m = {"role": "assistant", "content": reply["text"] or None}
    if reply["tool"]:
        tid, name, inp = reply["tool"]
        m["tool_calls"] = [{"id": tid, "type": "function",
                            "function": {"name": name,
                                         "arguments": json.dumps(inp)}}]
    return {"id": new_id("chatcmpl-"), "object": "chat.completion",
            "created": int(time.time()), "model": model,
            "choices": [{"index": 0, "message": m,
                         "finish_reason": "tool_calls" if reply["tool"]
                         else "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10,
                      "total_tokens": 20}}


def chat_sse(model, reply, body):
    cid, created = new_id("chatcmpl-"), int(time.time())

    def chunk(delta, finish=None):
        return {"id": cid, "object": "chat.completion.chunk",
                "created": created, "model": model,
                "choices": [{"index": 0, "delta": delta,
                             "finish_reason": finish}]}
    yield chunk({"role": "assistant", "content": ""})
    if reply["text"]:
        for c in chunks(reply["text"]):
            yield chunk({"content": c})
    if reply["tool"]:
        tid, name, inp = reply["tool"]
        yield chunk({"tool_calls": [{"index": 0, "id": tid, "type": "function",
                                     "function": {"name": name,
                                                  "arguments": ""}}]})
        for c in chunks(json.dumps(inp)):
            yield chunk({"tool_calls": [{"index": 0,
                                         "function": {"arguments": c}}]})
    yield chunk({}, "tool_calls" if reply["tool"] else "stop")
    if (body.get("stream_options") or {}).get("include_usage"):
        yield {"id": cid, "object": "chat.completion.chunk",
               "created": created, "model": model, "choices": [],
               "usage": {"prompt_tokens": 10, "completion_tokens": 10,
                         "total_tokens": 20}}


def gemini_json(model, reply):
    parts = []
    if reply["text"]:
        parts.append({"text": reply["text"]})
    if reply["tool"]:
        tid, name, inp = reply["tool"]
        parts.append({"functionCall": {"id": tid, "name": name,
                                       "args": inp}})
    return {"candidates": [{"content": {"role": "model", "parts": parts},
                            "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 10,
                              "candidatesTokenCount": 10,
                              "totalTokenCount": 20},
            "modelVersion": model, "responseId": new_id("resp_")}


def gemini_sse(model, reply):
    """Text in a few chunks, then the call and the finish reason."""
    whole = gemini_json(model, reply)
    if reply["text"]:
        for c in chunks(reply["text"]):
            yield {"candidates": [{"content": {"role": "model",
                                               "parts": [{"text": c}]},
                                   "index": 0}],
                   "modelVersion": model}
    last = dict(whole)
    last["candidates"] = [dict(whole["candidates"][0], content={
        "role": "model", "parts": [p for p in whole["candidates"][0]
                                   ["content"]["parts"] if "text" not in p]
        or [{"text": ""}]})]
    yield last


def responses_items(reply):
    items = []
    if reply["text"]:
        items.append({"type": "message", "id": new_id("msg_"),
                      "status": "completed", "role": "assistant",
                      "content": [{"type": "output_text", "annotations": [],
                                   "text": reply["text"]}]})
    if reply["tool"] and isinstance(reply["tool"][2], str):
        tid, name, inp = reply["tool"]
        items.append({"type": "custom_tool_call", "id": new_id("ctc_"),
                      "call_id": tid, "name": name, "status": "completed",
                      "input": inp})
    elif reply["tool"]:
        tid, name, inp = reply["tool"]
        items.append({"type": "function_call", "id": new_id("fc_"),
                      "call_id": tid, "name": name, "status": "completed",
                      "arguments": json.dumps(inp)})
    return items


def responses_json(model, reply, rid=None, items=None):
    return {"id": rid or new_id("resp_"), "object": "response",
            "created_at": int(time.time()), "status": "completed",
            "model": model, "output": items if items is not None
            else responses_items(reply),
            "usage": {"input_tokens": 10, "output_tokens": 10,
                      "total_tokens": 20,
                      "input_tokens_details": {"cached_tokens": 0},
                      "output_tokens_details": {"reasoning_tokens": 0}}}


def responses_sse(model, reply):
    rid = new_id("resp_")
    items = responses_items(reply)
    seq = itertools.count()
    shell = dict(responses_json(model, reply, rid, []), status="in_progress")

    def ev(ty, **kw):
        return ty, dict({"type": ty, "sequence_number": next(seq)}, **kw)
    yield ev("response.created", response=shell)
    yield ev("response.in_progress", response=shell)
    for i, it in enumerate(items):
        if it["type"] == "message":
            text = it["content"][0]["text"]
            yield ev("response.output_item.added", output_index=i,
                     item=dict(it, status="in_progress", content=[]))
            part = {"type": "output_text", "annotations": [], "text": ""}
            yield ev("response.content_part.added", output_index=i,
                     item_id=it["id"], content_index=0, part=part)
            for c in chunks(text):
                yield ev("response.output_text.delta", output_index=i,
                         item_id=it["id"], content_index=0, delta=c)
            yield ev("response.output_text.done", output_index=i,
                     item_id=it["id"], content_index=0, text=text)
            yield ev("response.content_part.done", output_index=i,
                     item_id=it["id"], content_index=0,
                     part=dict(part, text=text))
        else:
            # A function call streams its JSON arguments, a custom
            # (freeform) tool call its input text.
            key, evp = ("input", "response.custom_tool_call_input") \
                if it["type"] == "custom_tool_call" else \
                ("arguments", "response.function_call_arguments")
            yield ev("response.output_item.added", output_index=i,
                     item=dict(it, status="in_progress", **{key: ""}))
            for c in chunks(it[key]):
                yield ev(evp + ".delta", output_index=i, item_id=it["id"],
                         delta=c)
            yield ev(evp + ".done", output_index=i, item_id=it["id"],
                     **{key: it[key]})
        yield ev("response.output_item.done", output_index=i, item=it)
    yield ev("response.completed",
             response=responses_json(model, reply, rid, items))


# --------------------------------------------------------------- server --

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "hookshim-fake-model/1"

    def log_message(self, fmt, *args):
        if self.server.verbose:
            sys.stderr.write("model_server: " + (fmt % args) + "\n")

    def record(self, entry):
        srv = self.server
        with srv.lock:
            entry = dict({"seq": next(srv.seq)}, **entry)
            if srv.record_path:
                with open(srv.record_path, "a") as f:
                    f.write(json.dumps(entry) + "\n")

    def read_body(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            return self.rfile.read(n)
        if "chunked" in (self.headers.get("Transfer-Encoding") or ""):
            data = b""
            while True:
                size = int(self.rfile.readline().strip().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        return b""

    def send_json(self, obj, status=200):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("request-id", new_id("req_"))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def send_sse(self, events, named, done=True):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.send_header("request-id", new_id("req_"))
        self.end_headers()
        self.close_connection = True
        for ev in events:
            if named:
                name, data = ev
                out = "event: %s\ndata: %s\n\n" % (name, json.dumps(data))
            else:
                out = "data: %s\n\n" % json.dumps(ev)
            self.wfile.write(out.encode())
            self.wfile.flush()
        if not named and done:
            self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()

    def do_HEAD(self):
        self.record({"method": "HEAD", "path": self.path, "kind": "other"})
        self.send_json({})

    def do_GET(self):
        self.record({"method": "GET", "path": self.path, "kind": "other"})
        if self.path.split("?")[0].rstrip("/").endswith("/models"):
            self.send_json({"object": "list", "data": [
                {"id": "fake-model", "object": "model", "type": "model",
                 "created": 0, "owned_by": "hookshim"}]})
        else:
            self.send_json({})

    def do_DELETE(self):
        self.do_GET()

    def do_POST(self):
        raw = self.read_body()
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"_raw": raw.decode("utf-8", "replace")}
        path = self.path.split("?")[0].rstrip("/")
        api = None
        gemini_model = None
        if ":" in path.rsplit("/", 1)[-1]:  # /v1beta/models/M:method
            gemini_model, method = path.rsplit("/", 1)[-1].split(":", 1)
            if method == "countTokens":
                self.record({"method": "POST", "path": self.path,
                             "kind": "other", "body": body})
                return self.send_json({"totalTokens": 100})
            if method in ("generateContent", "streamGenerateContent"):
                api = "gemini"
        if path.endswith("/messages/count_tokens"):
            self.record({"method": "POST", "path": self.path,
                         "kind": "other", "body": body})
            return self.send_json({"input_tokens": 100})
        if path.endswith("/messages"):
            api = "anthropic"
        elif path.endswith("/chat/completions"):
            api = "chat"
        elif path.endswith("/responses"):
            api = "responses"
        if api is None or not isinstance(body, dict):
            self.record({"method": "POST", "path": self.path,
                         "kind": "other", "body": body})
            return self.send_json({})
        with self.server.lock:
            kind, turn, reply = plan_reply(api, body, self.server.script)
        self.record({"method": "POST", "path": self.path, "api": api,
                     "kind": kind, "turn": turn, "reply": {
                         "text": reply["text"],
                         "tool": list(reply["tool"]) if reply["tool"]
                         else None},
                     "body": body})
        model = body.get("model") or gemini_model or "fake-model"
        stream = bool(body.get("stream"))
        if api == "gemini":
            if path.endswith(":streamGenerateContent"):
                return self.send_sse(gemini_sse(model, reply), False,
                                     done=False)
            return self.send_json(gemini_json(model, reply))
        if api == "anthropic":
            if stream:
                return self.send_sse(anthropic_sse(model, reply), True)
            return self.send_json(anthropic_json(model, reply))
        if api == "chat":
            if stream:
                return self.send_sse(chat_sse(model, reply, body), False)
            return self.send_json(chat_json(model, reply))
        if stream:
            return self.send_sse(responses_sse(model, reply), True)
        return self.send_json(responses_json(model, reply))


def serve(args):
    srv = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    srv.daemon_threads = True
    srv.script = Script(args.script, args.final)
    srv.record_path = args.record
    srv.lock = threading.Lock()
    srv.seq = itertools.count(1)
    srv.verbose = args.verbose
    if args.record:
        open(args.record, "a").close()
    port = srv.server_address[1]
    if args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % port)
        os.rename(tmp, args.port_file)
    print(port, flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass


# -------------------------------------------------------------- results --

def _text_of(content):
    """Text of a tool result / message content in any of the API shapes."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for c in content:
            if isinstance(c, str):
                parts.append(c)
            elif isinstance(c, dict):
                if "text" in c:
                    parts.append(str(c["text"]))
                elif c.get("type") == "tool_result":
                    parts.append(_text_of(c.get("content")))
                elif "output" in c:
                    parts.append(_text_of(c["output"]))
        return "\n".join(parts)
    if isinstance(content, dict):
        return _text_of(content.get("text") or content.get("output"))
    return str(content)


def load_record(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass
    return out


def _conversation_results(api, body):
    """Yields (id, name, text, extra_text) for every tool result in one
    request's history; extra_text is other text that came back together
    with the results (e.g. hook context the agent itself injected)."""
    names = {}
    if api == "anthropic":
        for m in body.get("messages") or []:
            c = m.get("content")
            if m.get("role") == "assistant" and isinstance(c, list):
                for b in c:
                    if isinstance(b, dict) and b.get("type") == "tool_use":
                        names[b.get("id")] = b.get("name")
            if m.get("role") != "user" or not isinstance(c, list):
                continue
            res = [b for b in c if isinstance(b, dict)
                   and b.get("type") == "tool_result"]
            extra = "\n".join(b.get("text", "") for b in c
                              if isinstance(b, dict)
                              and b.get("type") == "text")
            for b in res:
                tid = b.get("tool_use_id")
                yield tid, names.get(tid), _text_of(b.get("content")), extra
    elif api == "chat":
        for m in body.get("messages") or []:
            if m.get("role") == "assistant":
                for tc in m.get("tool_calls") or []:
                    names[tc.get("id")] = (tc.get("function") or {}).get(
                        "name")
            elif m.get("role") == "tool":
                tid = m.get("tool_call_id")
                yield tid, names.get(tid), _text_of(m.get("content")), ""
    elif api == "gemini":
        k = 0
        for c in body.get("contents") or []:
            for part in c.get("parts") or [] if isinstance(c, dict) else []:
                fr = part.get("functionResponse") if isinstance(part, dict) \
                    else None
                if not isinstance(fr, dict):
                    continue
                resp = fr.get("response")
                if isinstance(resp, dict):
                    text = _text_of(resp.get("output", resp.get("error",
                                                              resp)))
                    if not isinstance(resp.get("output", resp.get("error")),
                                      (str, list, dict)):
                        text = json.dumps(resp)
                else:
                    text = _text_of(resp)
                yield fr.get("id") or "%s#%d" % (fr.get("name"), k), \
                    fr.get("name"), text, ""
                k += 1
    else:
        items = body.get("input")
        for it in items if isinstance(items, list) else []:
            if not isinstance(it, dict):
                continue
            if it.get("type") in ("function_call", "custom_tool_call"):
                names[it.get("call_id")] = it.get("name")
            elif it.get("type") in ("function_call_output",
                                    "local_shell_call_output",
                                    "custom_tool_call_output"):
                tid = it.get("call_id")
                yield tid, names.get(tid), _text_of(it.get("output")), ""


def tool_results(path):
    """Tool results in the order the agent first sent them back, from the
    main-loop requests of a record file: list of dicts id/name/text/extra."""
    seen, out = set(), []
    for e in load_record(path):
        if e.get("kind") != "main":
            continue
        for tid, name, text, extra in _conversation_results(e.get("api"),
                                                            e["body"]):
            if tid in seen:
                continue
            seen.add(tid)
            out.append({"id": tid, "name": name, "text": text,
                        "extra": extra, "seq": e.get("seq")})
    return out


def cmd_results(args):
    res = tool_results(args.record)
    if args.json:
        json.dump(res, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return
    for i, r in enumerate(res):
        if args.index is not None and i != args.index:
            continue
        if args.index is None:
            print("--- tool_result %d %s %s" % (i, r["name"], r["id"]))
        print(r["text"])
        if args.seen and r["extra"]:
            print("--- with text")
            print(r["extra"])


def cmd_requests(args):
    for e in load_record(args.record):
        body = e.get("body") or {}
        print("%s %s %s kind=%s turn=%s model=%s tools=%d stream=%s" % (
            e.get("seq"), e.get("method"), e.get("path"), e.get("kind"),
            e.get("turn"), body.get("model") if isinstance(body, dict)
            else None, len(body.get("tools") or [])
            if isinstance(body, dict) else 0,
            body.get("stream") if isinstance(body, dict) else None))


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd")
    s = sub.add_parser("serve", help="run the server")
    s.add_argument("--port", type=int, default=0)
    s.add_argument("--port-file")
    s.add_argument("--script", help="JSON script of turns")
    s.add_argument("--record", help="append every request here (JSONL)")
    s.add_argument("--final", help="text to answer once the script is out")
    s.add_argument("-v", "--verbose", action="store_true")
    for name in ("results", "seen"):
        r = sub.add_parser(name, help="print the tool results of a record")
        r.add_argument("record")
        r.add_argument("--json", action="store_true")
        r.add_argument("--index", type=int, help="only result N (0-based), "
                       "text only")
        r.set_defaults(seen=name == "seen")
    q = sub.add_parser("requests", help="summary line per recorded request")
    q.add_argument("record")
    if argv and argv[0] not in ("serve", "results", "seen", "requests",
                                "-h", "--help"):
        argv = ["serve"] + argv  # model_server.py --port 0 ... means serve
    args = p.parse_args(argv)
    if args.cmd == "serve":
        serve(args)
    elif args.cmd in ("results", "seen"):
        cmd_results(args)
    elif args.cmd == "requests":
        cmd_requests(args)
    else:
        p.print_help()
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
