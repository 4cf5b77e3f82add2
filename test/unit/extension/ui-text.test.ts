import assert from 'node:assert/strict';
import { buttonText, logLine, markdownCode, markdownText, toastText } from '../../../src/extension/ui-text';

/** Markdown links, icons, autolinks and raw HTML as a hostile database or team server would write them. */
const HOSTILE = [
  '[Fix now](command:workbench.action.tasks.build)',
  '[open](file:///etc/passwd)',
  '[x] (https://phish.example/login)',
  '$(verified-filled) trusted',
  'see https://phish.example/a and www.phish.example',
  '<img src=https://track.example/p.gif>',
  'line one\n[info] forged line\r\nthird',
  '\u202eevil\u202c \u001b[2J',
];

describe('editor text from untrusted values', () => {
  it('a toast never holds a link, a line break, a control or bidi character', () => {
    for (const h of HOSTILE) {
      const t = toastText(`SchemaBrain: profile of ${h} failed`);
      assert.doesNotMatch(t, /\]\s*\(/, t);
      assert.doesNotMatch(t, /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/, t);
    }
    // The words stay readable.
    assert.equal(toastText('[Fix now](command:x)').replace(/\u200b/g, ''), '[Fix now](command:x)');
    assert.equal(toastText('plain message, nothing to change'), 'plain message, nothing to change');
    assert.ok(buttonText('x'.repeat(200)).length <= 60);
  });

  it('a log line is one line', () => {
    assert.equal(logLine('a\n[info] b\rc'), 'a\\x0a[info] b\\x0dc');
  });

  it('markdown text has no link, icon, autolink, HTML or line of its own', () => {
    for (const h of HOSTILE) {
      const m = markdownText(h);
      assert.doesNotMatch(m, /(^|[^\\])\[/, m); // every [ escaped
      assert.doesNotMatch(m, /(^|[^\\])</, m); // every < escaped
      assert.doesNotMatch(m, /\$\(/, m);
      assert.doesNotMatch(m, /:\/\//, m);
      assert.doesNotMatch(m, /www\./i, m);
      assert.doesNotMatch(m, /[\r\n]/, m);
    }
    assert.equal(markdownText('a_b*c'), 'a\\_b\\*c');
  });

  it('a code span holds its text verbatim, fenced past its backticks, with no icon or autolink', () => {
    assert.equal(markdownCode('public.t(id)'), '`public.t(id)`');
    assert.equal(markdownCode('a`b'), '``a`b``');
    assert.equal(markdownCode('`x'), '`` `x ``');
    const c = markdownCode('$(verified) http://x.example');
    assert.doesNotMatch(c, /\$\(|:\/\//, c);
    assert.ok(!c.includes('\\'), c);
  });
});
