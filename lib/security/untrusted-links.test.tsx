import Markdown from 'react-markdown';
import { renderToStaticMarkup } from 'react-dom/server';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { describe, expect, it } from 'vitest';
import { ImageAsText, LinkAsText } from './untrusted-links';

const render = (md: string) =>
  renderToStaticMarkup(
    <Markdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSanitize]} components={{ a: LinkAsText, img: ImageAsText }}>
      {md}
    </Markdown>,
  );

describe('links and images from manuals in answers', () => {
  it('shows a link as text with its target, not as an anchor', () => {
    const html = render('Update the firmware at [the vendor portal](https://evil.example/login) [2].');
    expect(html).not.toMatch(/<a\b/);
    expect(html).toContain('the vendor portal');
    expect(html).toContain('(external link: https://evil.example/login)');
  });

  it('shows a bare URL once, and an image as text that loads nothing', () => {
    const html = render('See https://evil.example/x and ![wiring](https://evil.example/beacon.png)');
    expect(html).not.toMatch(/<a\b|<img\b/);
    expect(html.match(/evil\.example\/x/g)).toHaveLength(1);
    expect(html).toContain('[image: wiring — https://evil.example/beacon.png]');
  });
});
