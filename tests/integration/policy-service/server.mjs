// A policy service as a team would run one: Claude Code's http hook
// requests (the hook payload as the body) decided by Cedar policies with
// the Cedar project's own engine, answered in the hooks' JSON.
//
//   node server.mjs PORTFILE POLICIES.cedar RECORD.jsonl
//
// Each request is one Cedar question: principal Agent::"<session_id>",
// action Action::"<tool_name>", resource File::"<file_path>" or
// Command::"<command>", context { command, file_path, cwd, event }.
// A forbid policy's @reason("...") annotation is the reason the model
// reads; a policy whose id starts with "ask-" makes the answer "ask".
// Paths other than /hook let the test misbehave on purpose:
//   /status/NNN   answers NNN with a text body
//   /text         answers 200 with a body that is not JSON
//   /empty        answers 200 with an empty body
//   /slow/MS      answers after MS milliseconds
// GET /stats answers {"requests": N, "connections": N}. Every request's
// headers and payload go to RECORD.jsonl, one line each.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import * as cedar from '@cedar-policy/cedar-wasm/nodejs';

const [portFile, policyFile, recordFile] = process.argv.slice(2);
const text = readFileSync(policyFile, 'utf8');
const parts = cedar.policySetTextToParts(text);
if (parts.type !== 'success') {
	console.error(JSON.stringify(parts.errors));
	process.exit(1);
}
// Each policy by its @id, and its @reason.
const staticPolicies = {}, reasons = {};
for (const p of parts.policies) {
	const id = /@id\("([^"]*)"\)/.exec(p)?.[1] ?? `policy${Object.keys(staticPolicies).length}`;
	staticPolicies[id] = p;
	reasons[id] = /@reason\("([^"]*)"\)/.exec(p)?.[1] ?? id;
}

// parsed once, as a service would: each request only evaluates
const prepared = cedar.preparsePolicySet('team', { staticPolicies });
if (prepared.type !== 'success') {
	console.error(JSON.stringify(prepared.errors));
	process.exit(1);
}

let requests = 0, connections = 0;

function decide(payload) {
	const input = payload.tool_input ?? {};
	const tool = payload.tool_name ?? payload.hook_event_name ?? 'none';
	const resource = input.file_path !== undefined
		? { type: 'File', id: String(input.file_path) }
		: { type: 'Command', id: String(input.command ?? '') };
	const answer = cedar.statefulIsAuthorized({
		principal: { type: 'Agent', id: String(payload.session_id ?? '') },
		action: { type: 'Action', id: tool },
		resource,
		context: {
			command: String(input.command ?? ''),
			file_path: String(input.file_path ?? ''),
			cwd: String(payload.cwd ?? ''),
			event: String(payload.hook_event_name ?? ''),
		},
		preparsedPolicySetId: 'team',
		entities: [],
	});
	if (answer.type !== 'success')
		throw new Error(JSON.stringify(answer.errors));
	const { decision, diagnostics } = answer.response;
	const ask = diagnostics.reason.find((id) => id.startsWith('ask-'));
	if (decision === 'allow' && !ask)
		return { permissionDecision: 'allow' };
	const id = ask ?? diagnostics.reason[0];
	return {
		permissionDecision: ask && decision === 'allow' ? 'ask' : 'deny',
		permissionDecisionReason: id ? `Cedar policy ${id}: ${reasons[id]}`
			: 'Cedar: no policy permits this',
	};
}

const server = http.createServer((req, res) => {
	let body = '';
	req.on('data', (c) => { body += c; });
	req.on('end', () => {
		if (req.method === 'GET' && req.url === '/stats') {
			res.end(JSON.stringify({ requests, connections }));
			return;
		}
		requests++;
		appendFileSync(recordFile, JSON.stringify({ url: req.url, headers: req.headers, body }) + '\n');
		const reply = (status, text) => {
			res.writeHead(status, { 'Content-Type': 'application/json' });
			res.end(text);
		};
		let m;
		if ((m = /^\/status\/(\d+)$/.exec(req.url)))
			return reply(Number(m[1]), 'the policy service is down for maintenance\nsecond line');
		if (req.url === '/text')
			return reply(200, 'allow');
		if (req.url === '/empty')
			return reply(200, '');
		if ((m = /^\/slow\/(\d+)$/.exec(req.url))) {
			setTimeout(() => reply(200, ''), Number(m[1]));
			return;
		}
		try {
			const payload = JSON.parse(body);
			const out = decide(payload);
			if (payload.hook_event_name !== 'PreToolUse')
				return reply(200, '');
			reply(200, JSON.stringify({
				hookSpecificOutput: { hookEventName: 'PreToolUse', ...out },
			}));
		} catch (e) {
			reply(500, String(e));
		}
	});
});
server.on('connection', () => { connections++; });
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => {
	writeFileSync(portFile + '.tmp', String(server.address().port));
	// renamed, so the test never reads a half-written file
	import('node:fs').then((fs) => fs.renameSync(portFile + '.tmp', portFile));
});
