#!/usr/bin/env node
// The GitHub Action's step (action.yml): runs `faial-ts verify --sarif` on
// the inputs and writes the log to the SARIF path, runs it again for the text
// report (printed, and written to the job summary), annotates the findings
// when the log is not uploaded, sets the step's outputs, and exits 1 when the
// job must fail by fail-on (else 0). The decisions are src/cli/action.ts's;
// this file does the processes and files. Reads dist/ (npm ci builds it).
//
// Inputs, from the environment (action.yml maps its inputs to these):
// FAIAL_PATHS, FAIAL_COMPILE_COMMANDS, FAIAL_FAIL_ON, FAIAL_ARGS, FAIAL_SARIF,
// FAIAL_UPLOAD, FAIAL_DOCS_URL; GitHub's GITHUB_STEP_SUMMARY, GITHUB_OUTPUT,
// GITHUB_WORKSPACE… when set. Runs in the working directory (the checkout).
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const actionDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { actionInputsOf, annotations, docsUrlOf, gateOf, summaryMarkdown, verifyArgs } = await import(join(actionDir, 'dist/cli/action.js'));

/** faial-ts's exit code and output, stdout kept whole (a SARIF log can be large). */
function faial(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(actionDir, 'bin/faial-ts.js'), ...args], { env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => err.push(b));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal === null ? 2 : 128), stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

function parsedLog(text) {
  try {
    const log = JSON.parse(text);
    return log !== null && typeof log === 'object' && Array.isArray(log.runs) ? log : null;
  } catch {
    return null;
  }
}

function setOutput(name, value) {
  if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `${name}=${value}\n`);
}

const inputs = actionInputsOf(process.env);
if ('error' in inputs) {
  process.stderr.write(`::error title=faial-ts::${inputs.error}\n`);
  process.exit(1);
}

const sarif = await faial(verifyArgs(inputs, 'sarif', docsUrlOf(process.env, actionDir)));
const log = parsedLog(sarif.stdout);
if (log !== null) {
  mkdirSync(dirname(inputs.sarifPath), { recursive: true });
  writeFileSync(inputs.sarifPath, sarif.stdout);
}
process.stderr.write(sarif.stderr);
const text = await faial(verifyArgs(inputs, 'text', null));
process.stdout.write(text.stdout);
process.stderr.write(text.stderr);

const gate = gateOf(inputs.failOn, sarif.code, log);
if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, summaryMarkdown(gate, log, text.stdout === '' ? text.stderr : text.stdout));
// uploaded, code scanning annotates the pull request itself
if (log !== null && !inputs.upload) for (const line of annotations(log, 50)) process.stdout.write(`${line}\n`);
setOutput('sarif', log === null ? '' : inputs.sarifPath);
setOutput('exit-code', String(sarif.code));
setOutput('result', gate.fail ? 'fail' : 'pass');
process.stdout.write(`faial-ts: ${gate.fail ? 'failed' : 'passed'}: ${gate.reason}\n`);
process.exit(gate.fail ? 1 : 0);
