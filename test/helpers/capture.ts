import { Writable } from 'node:stream';

/** A writable that keeps what is written, for a command's stdout or stderr. */
export function capture(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}
