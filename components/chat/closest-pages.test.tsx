import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ClosestPage } from '@/lib/agent/events';
import { ClosestPageCards, FormNotice, RevealClosestPages } from './closest-pages';

const PAGES: ClosestPage[] = [
  {
    manualId: 'm 1',
    manualTitle: 'Acme HX-200 manual',
    page: 7,
    heading: 'Tightening torques',
    snippet: 'X1 terminal screws: 0.6 Nm torque.',
    previewUrl: '/manuals/m%201?page=7&hl=c7',
  },
  { manualId: 'm 1', manualTitle: 'Acme HX-200 manual', page: 3, snippet: 'Supply voltage 24 V DC', previewUrl: '/manuals/m%201?page=3' },
];

const render = (pages: ClosestPage[], question = 'What torque do the terminal screws need?') =>
  renderToStaticMarkup(<ClosestPageCards pages={pages} question={question} onOpen={() => {}} />);

describe('closest pages cards', () => {
  it('renders one button per page: thumbnail, manual, page, heading and the snippet with the question words marked', () => {
    const html = render(PAGES);
    expect(html.match(/data-testid="page-card"/g)).toHaveLength(2);
    expect(html).toMatch(/<button type="button" data-testid="page-card" data-manual-id="m 1" data-page="7"/);
    expect(html).toContain('src="/manuals/m%201/pages/7/thumb"');
    expect(html).toContain('Acme HX-200 manual');
    expect(html).toContain('Page 7</span><span data-testid="page-card-heading"> · Tightening torques</span>');
    expect(html).toContain('aria-label="Open Acme HX-200 manual, page 7 — Tightening torques"');
    expect(html).toMatch(/X1 <mark[^>]*>terminal<\/mark> <mark[^>]*>screws<\/mark>: 0\.6 Nm <mark[^>]*>torque<\/mark>\./);
    // No question word on page 3's snippet: nothing marked there.
    expect(html).toContain('>Supply voltage 24 V DC</span>');
    expect(render([])).toBe('');
  });

  it('shows the region of the page that covers the question, in place of the whole-page thumbnail, when the reply has one', () => {
    const html = render([{ ...PAGES[0], region: { bbox: [40, 100, 300, 180], kind: 'table' } }]);
    expect(html).toContain('data-testid="page-card-region" data-kind="table"');
    expect(html).not.toContain('page-card-thumb');
  });

  it('escapes a snippet: markup in a manual is shown as text, never injected', () => {
    const hostile = {
      ...PAGES[0],
      manualTitle: '<b>T</b>',
      heading: '<i>h</i>',
      snippet: 'Torque <img src=x onerror=alert(1)> <script>alert(2)</script> &amp; "q"',
    };
    const html = render([hostile], 'torque script img');
    expect(html).not.toMatch(/<img src=x|<script|<b>T|<i>h/);
    expect(html).toContain('&lt;<mark');
    expect(html).toMatch(/&lt;<mark[^>]*>img<\/mark> src=x onerror=alert\(1\)&gt;/);
    expect(html).toContain('&lt;<mark class="rounded-sm bg-amber-100 px-0.5 text-inherit dark:bg-amber-500/25">script</mark>&gt;alert(2)&lt;/<mark');
    expect(html).toContain('&amp;amp; &quot;q&quot;');
    expect(html).toContain('&lt;b&gt;T&lt;/b&gt;');
  });

  it('the not-covered form keeps the cards behind a "Show the closest pages" button', () => {
    const html = renderToStaticMarkup(<RevealClosestPages pages={PAGES} question="q" onOpen={() => {}} />);
    expect(html).toContain('data-testid="show-closest-pages" aria-expanded="false"');
    expect(html).toContain('Show the closest pages');
    expect(html).not.toContain('data-testid="page-card"');
    expect(renderToStaticMarkup(<RevealClosestPages pages={[]} question="q" onOpen={() => {}} />)).toBe('');
  });

  it('the sentence is a notice, as plain text', () => {
    const html = renderToStaticMarkup(
      <FormNotice mode="pages" text="I could not find a stated value for the **holding torque**; these pages are the closest match." />,
    );
    expect(html).toMatch(/^<p data-testid="form-notice" data-mode="pages"/);
    expect(html).toContain('**holding torque**');
  });
});
