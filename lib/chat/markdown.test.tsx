import Markdown from 'react-markdown';
import { renderToStaticMarkup } from 'react-dom/server';
import rehypeSanitize from 'rehype-sanitize';
import { describe, expect, it } from 'vitest';
import { literalMarkdown, rehypeCitations, rehypeUnsupported, remarkPlugins } from './markdown';

/** As components/chat/answer.tsx renders an answer. */
function render(text: string, sentences: Array<{ sentence: string; reason: string }> = [], literal = false) {
  return renderToStaticMarkup(
    <Markdown remarkPlugins={remarkPlugins} rehypePlugins={[rehypeSanitize, [rehypeUnsupported, { sentences }], rehypeCitations]}>
      {literal ? literalMarkdown(text) : text}
    </Markdown>,
  );
}

describe('answer markdown', () => {
  it('turns [n] and [n, m] into citation elements, but not inside code', () => {
    const html = render('The supply is 24 V DC [3]. Fuses [1, 2].\n\n`array[0]` stays [code].');
    expect(html).toContain('24 V DC <cite data-ref="3">3</cite>.');
    expect(html).toContain('<cite data-ref="1">1</cite><cite data-ref="2">2</cite>');
    expect(html).toContain('<code>array[0]</code>');
  });

  it('renders GFM tables, lists and code blocks', () => {
    const html = render('| Code | Meaning |\n|---|---|\n| E01 | Low voltage [2] |\n\n1. Switch off\n2. Wait\n\n```\nP-07 = 200\n```');
    expect(html).toContain('<table>');
    expect(html).toContain('<td>Low voltage <cite data-ref="2">2</cite></td>');
    expect(html).toMatch(/<ol>\s*<li>Switch off<\/li>/);
    expect(html).toContain('<pre><code>P-07 = 200\n</code></pre>');
  });

  it('sanitizes: no raw HTML, no script, no javascript: links', () => {
    const html = render('Hi <script>alert(1)</script> <img src=x onerror=alert(1)> [x](javascript:alert(1)) [ok](https://example.com)');
    // Raw HTML shows as escaped text (remarkHtmlAsText): no element, attribute or link survives.
    expect(html).not.toMatch(/<script|<img|href="javascript:/i);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('href="https://example.com"');
  });

  it('shows HTML quoted from a manual as text instead of dropping the line', () => {
    const html = render('<script>alert(1)</script> is printed on page 4 [1].');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; is printed on page 4 <cite data-ref="1">1</cite>.');
  });

  it('marks unsupported sentences, keeping their citations', () => {
    const html = render('The pump runs at 230 V [1]. The fuse is rated 99 A [2]. Done.', [
      { sentence: 'The fuse is rated 99 A [2].', reason: '99 does not appear' },
    ]);
    expect(html).toContain('<mark data-reason="99 does not appear">The fuse is rated 99 A <cite data-ref="2">2</cite>.</mark>');
    expect(html).toContain('230 V <cite data-ref="1">1</cite>.');
  });

  it('marks a list item sentence and the start of a sentence split by formatting', () => {
    const list = render('1. Set **P-07** to 200 bar [4].', [{ sentence: '1. Set P-07 to 200 bar [4].', reason: 'r' }]);
    expect(list).toContain('<mark data-reason="r">');
    const plain = render('Replace the seal every 4000 hours [2].', [{ sentence: 'Replace the seal every 4000 hours [2].', reason: 'r' }]);
    expect(plain).toContain('<mark data-reason="r">Replace the seal every 4000 hours <cite data-ref="2">2</cite>.</mark>');
  });

  it('keeps "~" between numbers in model answers (no single-tilde strikethrough)', () => {
    const html = render('Pump inlet pressure | 3~9 V | 2.5~3.65 V [2]');
    expect(html).not.toContain('<del>');
    expect(html).toContain('3~9 V | 2.5~3.65 V <cite data-ref="2">2</cite>');
  });
});

describe('a quoted (extractive) answer', () => {
  const literal = (text: string, sentences: Array<{ sentence: string; reason: string }> = []) => render(text, sentences, true);
  const textOf = (html: string) => html.replace(/<cite data-ref="(\d+)">\d+<\/cite>/g, '[$1]').replace(/<\/?p>/g, '');

  it.each([
    ['~', 'Inlet pressure 3~9 V and 2.5~3.65 V, ~~not struck~~ [1].'],
    ['*', 'Torque *2* to **4** Nm, 5*3 mm [1].'],
    ['_', 'Set _MODE_ to __AUTO__ or snake_case_name [1].'],
    ['`', 'Type `HX` then ``RUN`` [1].'],
    ['|', 'Pump inlet pressure | 3~9 V | default [1].'],
  ])('shows %s as written', (_char, text) => {
    expect(textOf(literal(text))).toBe(text);
  });

  it('shows "<" and "&" as written, never as HTML or an entity', () => {
    const html = literal('Pressure <5 bar, <b>bold</b> &amp; <script>x</script> [1].');
    expect(html).not.toMatch(/<b>|<script/);
    expect(html).toContain('Pressure &lt;5 bar, &lt;b&gt;bold&lt;/b&gt; &amp;amp; &lt;script&gt;x&lt;/script&gt; <cite data-ref="1">1</cite>.');
  });

  it('reads no block syntax: a heading mark, a list number, a table and a line break stay text', () => {
    const html = literal('# 1. Fill the tank [1].\n| a | b |\n|---|---|\n- not a list [2].');
    expect(html).not.toMatch(/<h1|<ol|<ul|<table|<li/);
    expect(html).toBe('<p># 1. Fill the tank <cite data-ref="1">1</cite>.<br/>\n| a | b |<br/>\n|---|---|<br/>\n- not a list <cite data-ref="2">2</cite>.</p>');
  });

  it('still marks an unsupported sentence', () => {
    const html = literal('Range 3~9 V [1]. Torque *2* Nm [2].', [{ sentence: 'Torque *2* Nm [2].', reason: 'r' }]);
    expect(html).toContain('<mark data-reason="r">Torque *2* Nm <cite data-ref="2">2</cite>.</mark>');
    expect(html).toContain('Range 3~9 V <cite data-ref="1">1</cite>.');
  });
});
