// Every operation of the API reference (the project's trimmed copy lists them) is served by the
// sandbox: a valid request answers the documented 2xx with a body of the documented schema, an
// unknown id in the path answers 404, and a bad body 422 naming what is wrong by JSON pointer.
// An operation added to the reference without a case here fails the first test.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateErrorBody, validateResponse } from '../helpers/contract';
import { conformanceCases } from '../helpers/conformance-cases';
import { call, useSandbox, type ApiResponse } from '../helpers/sandbox';

const sandbox = useSandbox({ seed: 'conformance', shipments: 40, routing: true });

const reference = JSON.parse(
  readFileSync(new URL('../fixtures/tracking-api/openapi-trimmed.json', import.meta.url), 'utf8'),
) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

const operations = Object.entries(reference.paths).flatMap(([template, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({
    key: `${method.toUpperCase()} ${template}`,
    method: method.toUpperCase(),
    template,
    success: Number(Object.keys(operation.responses).find((status) => status.startsWith('2'))),
  })),
);

const cases = conformanceCases(() => sandbox.get());
const api = (path: string, method: string, body?: unknown): Promise<ApiResponse> =>
  call(sandbox.get(), path, { method, body });

describe('sandbox conformance: every operation of the reference', () => {
  it('has a case for each operation the reference lists, and none for one it does not', () => {
    expect(operations.length).toBeGreaterThan(80);
    expect(operations.map((o) => o.key).filter((key) => !(key in cases))).toEqual([]);
    expect(Object.keys(cases).filter((key) => !operations.some((o) => o.key === key))).toEqual([]);
  });

  it.each(operations)('$key answers a valid request with the documented status and shape', async (operation) => {
    const { path, body } = await cases[operation.key]!.valid();
    const response = await api(path, operation.method, body);
    expect(response.status, response.text.slice(0, 400)).toBe(operation.success);
    expect(validateResponse(operation.method, operation.template, operation.success, response.body)).toEqual([]);
  });

  const withUnknown = operations.filter((o) => cases[o.key]?.unknown);
  it.each(withUnknown)('$key answers 404 for an unknown id', async (operation) => {
    const { path, body } = await cases[operation.key]!.unknown!();
    const response = await api(path, operation.method, body);
    expect(response.status, response.text.slice(0, 400)).toBe(404);
    expect(validateErrorBody(response.body)).toEqual([]);
  });

  const withInvalid = operations.filter((o) => cases[o.key]?.invalid);
  it.each(withInvalid)('$key answers 422 naming the bad member', async (operation) => {
    const { path, body, pointer } = await cases[operation.key]!.invalid!();
    const response = await api(path, operation.method, body);
    expect(response.status, response.text.slice(0, 400)).toBe(422);
    expect(validateErrorBody(response.body)).toEqual([]);
    expect(response.body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer)).toContain(pointer);
  });
});
