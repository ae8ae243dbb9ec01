// No bare sleeps in the tests: a test that waits for something to happen polls for it with a deadline (until(),
// test/support/wait.ts) or moves an injected clock; it never sleeps a fixed time and hopes the machine was quick
// enough. A bare sleep is a promise that only a timer settles (`new Promise((r) => setTimeout(r, 100))`, or a
// setInterval doing the same), or node's timers/promises. A timer beside an event that settles the same promise (a
// message, an exit, with the timer as its deadline) is a deadline, not a sleep.
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, ROOT, walk } from './support.js';

/** Every TypeScript file under test/, with its text. */
function testFiles(dir = 'test'): { file: string; text: string }[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return testFiles(file);
    return entry.name.endsWith('.ts') ? [{ file, text: readFileSync(join(ROOT, file), 'utf8') }] : [];
  });
}

const TIMERS = new Set(['setTimeout', 'setInterval']);

/** The name a call calls (setTimeout, or globalThis.setTimeout's setTimeout). */
function callee(call: ts.CallExpression): string | undefined {
  const e = call.expression;
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  return undefined;
}

/**
 * Whether `arg`, a timer's callback, ends the wait by itself: the resolve function, or a function that only calls it
 * with nothing (resolving with a value, or rejecting, is the outcome of a deadline, as in a Promise.race).
 */
function resolvesBare(arg: ts.Expression | undefined, resolve: string): boolean {
  if (!arg) return false;
  if (ts.isIdentifier(arg)) return arg.text === resolve;
  if (!ts.isArrowFunction(arg) && !ts.isFunctionExpression(arg)) return false;
  let body: ts.Node = arg.body;
  if (ts.isBlock(body)) {
    if (body.statements.length !== 1 || !ts.isExpressionStatement(body.statements[0])) return false;
    body = body.statements[0].expression;
  }
  return (
    ts.isCallExpression(body) &&
    ts.isIdentifier(body.expression) &&
    body.expression.text === resolve &&
    body.arguments.every((a) => ts.isIdentifier(a) && a.text === 'undefined')
  );
}

const within = (inner: ts.Node, outer: ts.Node) => inner.pos >= outer.pos && inner.end <= outer.end;

/** The bare sleeps in one file: `line: text` for each. */
function bareSleeps(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const at = (n: ts.Node) =>
    `${source.getLineAndCharacterOfPosition(n.getStart()).line + 1}: ${n.getText().split('\n')[0].trim()}`;
  walk(source, (candidate) => {
    if (ts.isImportDeclaration(candidate) && ts.isStringLiteral(candidate.moduleSpecifier)) {
      if (/^(node:)?timers\/promises$/.test(candidate.moduleSpecifier.text)) found.push(at(candidate));
      return;
    }
    if (
      !ts.isNewExpression(candidate) ||
      !ts.isIdentifier(candidate.expression) ||
      candidate.expression.text !== 'Promise'
    )
      return;
    const executor = candidate.arguments?.[0];
    if (!executor || (!ts.isArrowFunction(executor) && !ts.isFunctionExpression(executor))) return;
    const first = executor.parameters[0]?.name;
    if (!first || !ts.isIdentifier(first)) return;
    const resolve = first.text;
    // The timers that resolve the promise, and whether anything else (an event) is handed the resolve function too.
    const timers: ts.Node[] = [];
    walk(executor.body, (inner) => {
      if (ts.isCallExpression(inner) && TIMERS.has(callee(inner) ?? '') && resolvesBare(inner.arguments[0], resolve))
        timers.push(inner);
    });
    if (!timers.length) return;
    let event = false;
    walk(executor.body, (inner) => {
      if (ts.isIdentifier(inner) && inner.text === resolve && !timers.some((t) => within(inner, t))) event = true;
    });
    if (!event) found.push(at(candidate));
  });
  return found;
}

describe('waits in the tests', () => {
  it('no test file sleeps a fixed time to wait for something (poll with until(), or move a clock)', () => {
    // Parsed only where a timer is named at all (the rest cannot sleep).
    const sleeps = testFiles()
      .filter((f) => /setTimeout|setInterval|timers\/promises/.test(f.text))
      .flatMap((f) => bareSleeps(parse(f.file, f.text)).map((s) => `${f.file}:${s}`));
    expect(sleeps).toEqual([]);
  });

  it('the check sees a bare sleep, and a timer that is the deadline of an event is not one', () => {
    const check = (text: string) => bareSleeps(parse('t.ts', text));
    expect(check('await new Promise((r) => setTimeout(r, 100));')).toHaveLength(1);
    expect(check('await new Promise((res) => { setTimeout(() => res(undefined), 5); });')).toHaveLength(1);
    expect(
      check('const t = setInterval(() => {}, 5); await new Promise<void>(function (ok) { setTimeout(ok, 1) });'),
    ).toHaveLength(1);
    expect(check("import { setTimeout as sleep } from 'node:timers/promises';")).toHaveLength(1);
    expect(
      check('await new Promise((res) => { const t = setTimeout(res, 5); ws.once("message", () => res()); });'),
    ).toEqual([]);
    expect(
      check('await new Promise((res, rej) => { child.on("exit", res); setTimeout(() => rej(new Error()), 9); });'),
    ).toEqual([]);
    expect(check('await Promise.race([run(), new Promise((res) => setTimeout(() => res({ code: -2 }), 9))]);')).toEqual(
      [],
    );
    expect(check('await new Promise((r) => term.write("", r));')).toEqual([]);
  });
});
