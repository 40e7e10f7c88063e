/**
 * A hostile or broken PostgreSQL for tests, on 127.0.0.1 only: just enough of the wire protocol
 * for the `pg` client (startup answered with AuthenticationOk and ReadyForQuery; simple queries
 * and the extended protocol's Parse/Bind/Describe/Execute/Sync), every query answered by the
 * test's `answer`, which either returns a table or an error, or writes its own bytes (a row that
 * never ends). With `tls`, an SSLRequest is accepted and the rest runs over TLS with the given
 * key and certificate. `bytesWritten` counts what the client's socket actually took.
 */
import { createServer, type Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';

export interface FakeQuery {
  text: string;
  params: (string | null)[];
}

export type FakeAnswer =
  | { columns: string[]; rows: (string | null)[][] }
  | { error: string }
  /** Writes the answer itself (after the parse/bind acknowledgements of an extended query). */
  | { write: (socket: Duplex) => void };

export interface FakePostgres {
  port: number;
  url(query?: string): string;
  /** Bytes the server's sockets flushed to the clients so far. */
  bytesWritten(): number;
  queries: FakeQuery[];
  close(): Promise<void>;
}

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};

/** One backend message: its code, its length, its body. */
export function message(code: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from(code, 'latin1'), u32(body.length + 4), body]);
}

const cstring = (s: string) => Buffer.from(`${s}\0`, 'utf8');

export function rowDescription(columns: string[]): Buffer {
  // Every column text (OID 25), so the client hands the values over as strings.
  const fields = columns.map((name) =>
    Buffer.concat([cstring(name), u32(0), u16(0), u32(25), u16(-1), u32(-1), u16(0)]),
  );
  return message('T', u16(columns.length), ...fields);
}

export function dataRow(values: (string | null)[]): Buffer {
  const cells = values.map((v) => {
    if (v === null) return u32(-1);
    const bytes = Buffer.from(v, 'utf8');
    return Buffer.concat([u32(bytes.length), bytes]);
  });
  return message('D', u16(values.length), ...cells);
}

export const commandComplete = (tag: string) => message('C', cstring(tag));
export const readyForQuery = () => message('Z', Buffer.from('I'));

export function errorResponse(text: string): Buffer {
  return message(
    'E',
    Buffer.from('S'),
    cstring('ERROR'),
    Buffer.from('C'),
    cstring('XX000'),
    Buffer.from('M'),
    cstring(text),
    Buffer.from([0]),
  );
}

/**
 * The start of a DataRow whose last cell declares `bodyBytes` bytes after the `cells` given in
 * full: the body's bytes are the test's to write (all of them, or never enough).
 */
export function dataRowHeader(cells: string[], bodyBytes: number): Buffer {
  const given = cells.map((v) => {
    const bytes = Buffer.from(v, 'utf8');
    return Buffer.concat([u32(bytes.length), bytes]);
  });
  const head = Buffer.concat([u16(cells.length + 1), ...given, u32(bodyBytes)]);
  return Buffer.concat([Buffer.from('D'), u32(Math.min(4 + head.length + bodyBytes, 0x7fffffff)), head]);
}

/**
 * Writes `total` bytes of filler (Infinity: until the client goes), in slices, waiting for the
 * socket to drain between them, so what was written is what the client read.
 */
export function pump(socket: Duplex, total: number, slice = 64 * 1024): void {
  const chunk = Buffer.alloc(slice, 0x78);
  let sent = 0;
  const more = () => {
    while (sent < total && !socket.destroyed && socket.writable) {
      const part = total - sent < slice ? chunk.subarray(0, total - sent) : chunk;
      sent += part.length;
      if (!socket.write(part)) return void socket.once('drain', more);
    }
  };
  more();
}

export async function startFakePostgres(
  answer: (query: FakeQuery) => FakeAnswer,
  options: { tls?: { key: string; cert: string } } = {},
): Promise<FakePostgres> {
  const sockets = new Set<Socket>();
  let written = 0;
  const queries: FakeQuery[] = [];
  const server = createServer((raw) => {
    sockets.add(raw);
    raw.on('close', () => {
      written += raw.bytesWritten;
      sockets.delete(raw);
    });
    raw.on('error', () => undefined);
    let socket: Duplex = raw;
    let buffer = Buffer.alloc(0);
    let started = false;
    let pending: { text: string; params: (string | null)[] } | null = null;

    const reply = (query: FakeQuery, extended: boolean) => {
      queries.push(query);
      let out: FakeAnswer;
      try {
        out = answer(query);
      } catch (error) {
        // A test's own mistake answers as an error, not as a query that never ends.
        out = { error: `the fake server failed: ${String(error)}` };
      }
      if (extended) socket.write(Buffer.concat([message('1'), message('2')]));
      if ('write' in out) return out.write(socket);
      if ('error' in out) return void socket.write(Buffer.concat([errorResponse(out.error), readyForQuery()]));
      socket.write(
        Buffer.concat([
          rowDescription(out.columns),
          ...out.rows.map(dataRow),
          commandComplete(`SELECT ${out.rows.length}`),
          readyForQuery(),
        ]),
      );
    };

    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!started) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) return;
          const code = buffer.readInt32BE(4);
          buffer = buffer.subarray(length);
          if (code === 80877103) {
            // SSLRequest: TLS when the test gave a certificate, else plain text refused.
            if (!options.tls) return void raw.write('N');
            raw.removeListener('data', onData);
            raw.write('S');
            const secure = new TLSSocket(raw, { isServer: true, key: options.tls.key, cert: options.tls.cert });
            secure.on('error', () => undefined);
            secure.on('data', onData);
            socket = secure;
            return;
          }
          started = true;
          socket.write(Buffer.concat([message('R', u32(0)), readyForQuery()]));
          continue;
        }
        if (buffer.length < 5) return;
        const code = String.fromCharCode(buffer[0]!);
        const length = buffer.readInt32BE(1);
        if (buffer.length < length + 1) return;
        const body = buffer.subarray(5, length + 1);
        buffer = buffer.subarray(length + 1);
        if (code === 'Q') reply({ text: body.toString('utf8', 0, body.length - 1), params: [] }, false);
        else if (code === 'P') {
          const nameEnd = body.indexOf(0);
          const textEnd = body.indexOf(0, nameEnd + 1);
          pending = { text: body.toString('utf8', nameEnd + 1, textEnd), params: [] };
        } else if (code === 'B' && pending) pending.params = bindParams(body);
        else if (code === 'S' && pending) {
          const query = pending;
          pending = null;
          reply(query, true);
        } else if (code === 'X') socket.end();
      }
    };
    raw.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    url: (query = '') => `postgres://reader@127.0.0.1:${port}/hub${query}`,
    bytesWritten: () => written + [...sockets].reduce((n, s) => n + s.bytesWritten, 0),
    queries,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A Bind message's parameters, as text. */
function bindParams(body: Buffer): (string | null)[] {
  let at = body.indexOf(0) + 1; // portal
  at = body.indexOf(0, at) + 1; // statement
  const formats = body.readInt16BE(at);
  at += 2 + formats * 2;
  const count = body.readInt16BE(at);
  at += 2;
  const params: (string | null)[] = [];
  for (let i = 0; i < count; i++) {
    const length = body.readInt32BE(at);
    at += 4;
    if (length < 0) params.push(null);
    else {
      params.push(body.toString('utf8', at, at + length));
      at += length;
    }
  }
  return params;
}
