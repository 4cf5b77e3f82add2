import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { ProgressBar } from '../../../src/cli/progress';
import { redrawLine, terminalStream } from '../../../src/core/util/terminal-text';

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

describe('the CLI terminal stream', () => {
  it('escapes every control character of what is written but the line feed, in text and in bytes', () => {
    const { stream, text } = capture();
    const out = terminalStream(stream);
    out.write("database 'x\u001b[2Jevil' does not exist\n");
    out.write(Buffer.from('row\r\u009b31m\u202eabc\tz\n', 'utf8'));
    assert.equal(text(), "database 'x\\x1b[2Jevil' does not exist\nrow\\x0d\\x9b31m\\u202eabc\\x09z\n");
  });

  it('passes the rest of the stream through, and wrapping twice escapes once', async () => {
    const { stream, text } = capture();
    const out = terminalStream(terminalStream(stream));
    const finished = new Promise<void>((resolve) => out.once('finish', () => resolve()));
    out.write('a\u0007b\n');
    out.end();
    await finished;
    assert.equal(text(), 'a\\x07b\n');
  });

  it('a progress bar returns to the start of the line itself and escapes the name it shows', () => {
    const { stream, text } = capture();
    const out = terminalStream(stream);
    const bar = new ProgressBar(out, 'indexing evil\rname', 4);
    bar.update(50, 'tables\u001b]0;title\u0007');
    bar.done();
    assert.match(text(), /^\rindexing evil\\x0dname \[##\.\.\]  50% tables\\x1b\]0;title\\x07 *\n$/);
    // On a stream that is not wrapped, the same carriage return and the same escaping.
    const plain = capture();
    redrawLine(plain.stream, 'a\u001bb');
    assert.equal(plain.text(), '\ra\\x1bb');
  });
});
