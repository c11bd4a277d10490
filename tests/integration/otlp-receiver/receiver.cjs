// An OTLP/HTTP logs receiver that checks what it is sent against the
// official OTLP protobuf definitions (opentelemetry-proto, as generated
// into @opentelemetry/otlp-transformer): every key of every message must
// be a field of its message type, and the request must survive
// fromObject -> verify -> encode -> decode -> toObject unchanged (so no
// field was lost, mistyped or misnamed). Each request it accepts is
// appended to RECORD.jsonl as {"headers", "request"} (the decoded
// message as OTLP JSON); a request that fails the check is answered 400
// and recorded as {"error"}.
//
//   node receiver.cjs serve PORTFILE RECORD.jsonl [MODE]
//   node receiver.cjs check FILE      (an OTLP JSON-lines file; exit 1
//                                      on the first line that fails)
// MODE: ok (default); fail:N:STATUS (the first N requests get STATUS,
// with Retry-After: 0 on 429); hang (accept, never answer); slow:MS.
'use strict';
const fs = require('node:fs');
const http = require('node:http');
const root = require('@opentelemetry/otlp-transformer/build/src/generated/root');
const P = root.opentelemetry.proto;
const Request = P.collector.logs.v1.ExportLogsServiceRequest;

// Which message type each field holds (the rest are scalars).
const shape = {
	ExportLogsServiceRequest: [P.collector.logs.v1.ExportLogsServiceRequest, { resourceLogs: 'ResourceLogs' }],
	ResourceLogs: [P.logs.v1.ResourceLogs, { resource: 'Resource', scopeLogs: 'ScopeLogs' }],
	Resource: [P.resource.v1.Resource, { attributes: 'KeyValue' }],
	ScopeLogs: [P.logs.v1.ScopeLogs, { scope: 'InstrumentationScope', logRecords: 'LogRecord' }],
	InstrumentationScope: [P.common.v1.InstrumentationScope, { attributes: 'KeyValue' }],
	LogRecord: [P.logs.v1.LogRecord, { body: 'AnyValue', attributes: 'KeyValue' }],
	KeyValue: [P.common.v1.KeyValue, { value: 'AnyValue' }],
	AnyValue: [P.common.v1.AnyValue, { arrayValue: 'ArrayValue', kvlistValue: 'KeyValueList' }],
	ArrayValue: [P.common.v1.ArrayValue, { values: 'AnyValue' }],
	KeyValueList: [P.common.v1.KeyValueList, { values: 'KeyValue' }],
};

// Every key a field of its type's official definition; ids as hex
// (OTLP JSON) turned into base64 (protobufjs's JSON) on the way.
function walk(typeName, obj, path) {
	const [T, sub] = shape[typeName];
	if (obj === null || typeof obj !== 'object' || Array.isArray(obj))
		throw new Error(`${path}: a ${typeName} must be an object`);
	const out = {};
	for (const [k, v] of Object.entries(obj)) {
		if (!(k in T.prototype) || typeof T.prototype[k] === 'function')
			throw new Error(`${path}.${k}: not a field of ${typeName}`);
		if (sub[k])
			out[k] = Array.isArray(v) ? v.map((e, i) => walk(sub[k], e, `${path}.${k}[${i}]`))
				: walk(sub[k], v, `${path}.${k}`);
		else if ((k === 'traceId' || k === 'spanId') && typeName === 'LogRecord') {
			if (!/^[0-9a-f]+$/.test(v) || v.length !== (k === 'traceId' ? 32 : 16))
				throw new Error(`${path}.${k}: not ${k === 'traceId' ? 32 : 16} hex digits: ${v}`);
			out[k] = Buffer.from(v, 'hex').toString('base64');
		} else
			out[k] = v;
	}
	return out;
}

function check(json) {
	const obj = walk('ExportLogsServiceRequest', json, 'request');
	const msg = Request.fromObject(obj);
	const err = Request.verify(msg);
	if (err)
		throw new Error(`verify: ${err}`);
	const back = Request.toObject(Request.decode(Request.encode(msg).finish()),
		{ longs: String, enums: Number, bytes: String, defaults: false });
	const want = JSON.stringify(sorted(Request.toObject(msg, { longs: String, enums: Number, bytes: String })));
	if (JSON.stringify(sorted(back)) !== want)
		throw new Error('the request does not survive encode/decode');
	// the decoded message, back in OTLP JSON (hex ids)
	return JSON.parse(JSON.stringify(back), (k, v) =>
		(k === 'traceId' || k === 'spanId') && typeof v === 'string'
			? Buffer.from(v, 'base64').toString('hex') : v);
}

function sorted(v) {
	if (Array.isArray(v)) return v.map(sorted);
	if (v && typeof v === 'object')
		return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])]));
	return v;
}

const [cmd, a1, a2, mode = 'ok'] = process.argv.slice(2);
if (cmd === 'check') {
	const lines = fs.readFileSync(a1, 'utf8').split('\n').filter(Boolean);
	lines.forEach((l, i) => {
		try { check(JSON.parse(l)); } catch (e) {
			console.error(`${a1}:${i + 1}: ${e.message}`);
			process.exit(1);
		}
	});
	console.log(`${lines.length} request(s) valid`);
	process.exit(0);
}

let seen = 0;
const server = http.createServer((req, res) => {
	let body = '';
	req.on('data', (c) => { body += c; });
	req.on('end', () => {
		seen++;
		const m = /^fail:(\d+):(\d+)$/.exec(mode);
		if (mode === 'hang')
			return;
		if (m && seen <= Number(m[1])) {
			res.writeHead(Number(m[2]), Number(m[2]) === 429 ? { 'Retry-After': '0' } : {});
			return res.end('try again');
		}
		// checked and recorded on arrival; a slow receiver then waits
		// before it answers (the exporter may give up on it meanwhile)
		let status = 200, text = '{}';
		try {
			const decoded = check(JSON.parse(body));
			fs.appendFileSync(a2, JSON.stringify({ headers: req.headers, url: req.url, request: decoded }) + '\n');
		} catch (e) {
			fs.appendFileSync(a2, JSON.stringify({ error: e.message }) + '\n');
			status = 400;
			text = e.message;
		}
		const answer = () => {
			res.writeHead(status, { 'Content-Type': 'application/json' });
			res.end(text);
		};
		const slow = /^slow:(\d+)$/.exec(mode);
		slow ? setTimeout(answer, Number(slow[1])) : answer();
	});
});
server.listen(0, '127.0.0.1', () => {
	fs.writeFileSync(a1 + '.tmp', String(server.address().port));
	fs.renameSync(a1 + '.tmp', a1);
});
