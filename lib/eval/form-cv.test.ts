import { describe, expect, it } from 'vitest';
import { chooseFormPolicy, formCurve, formFolds, formRates, FORM_GRID, NEVER_WITHHOLD, type FormSample } from './form-cv';

const s = (fold: string, answerable: boolean, coverage: number, keywordHit: boolean, quantityMissing = false): FormSample => ({
  fold,
  answerable,
  evidence: { coverage, quantityMissing },
  keywordHit,
});

describe('form policy under cross-validation', () => {
  // Right quotes have high coverage, wrong ones low; one quote misses the asked quantity.
  const samples: FormSample[] = [
    s('a', true, 0.9, true),
    s('a', true, 0.8, true),
    s('a', true, 0.3, false),
    s('b', true, 0.7, true),
    s('b', true, 0.35, false),
    s('b', true, 0.9, false, true),
    s('b', false, 0.2, false),
    { fold: 'c', answerable: true, evidence: null, fixed: 'pages', keywordHit: false },
    s('c', false, 0.75, false),
  ];

  it('computes stated precision, coverage and unanswerable stated; a fixed form is never stated', () => {
    expect(formRates(samples, NEVER_WITHHOLD)).toEqual({ precision: 3 / 6, coverage: 6 / 7, unanswerableStated: 1 });
    expect(formRates(samples, { minCoverage: 0.5, requireAskedQuantity: true })).toEqual({ precision: 1, coverage: 3 / 7, unanswerableStated: 0.5 });
  });

  it('maximises coverage at precision ≥ 0.85, else precision at coverage ≥ 0.40', () => {
    // 0.4 … 0.7 with the quantity rule reach precision 1; 0.4 keeps the most coverage (ties: the earlier point).
    expect(chooseFormPolicy(samples)).toEqual({ minCoverage: 0.4, requireAskedQuantity: true });
    // Nothing reaches 0.85: the most precise policy with coverage ≥ 0.40.
    const hard = [s('a', true, 0.9, true), s('a', true, 0.9, false), s('a', true, 0.5, true), s('a', true, 0.5, false), s('a', true, 0.1, false)];
    const chosen = chooseFormPolicy(hard);
    expect(formRates(hard, chosen)).toMatchObject({ precision: 0.5 });
    expect(formRates(hard, chosen).coverage).toBeGreaterThanOrEqual(0.4);
  });

  it('chooses each fold without its manual, and draws the curve over the fixed grid', () => {
    const folds = formFolds(samples);
    expect([...folds.keys()]).toEqual(['a', 'b', 'c']);
    expect(folds.get('c')).toEqual(chooseFormPolicy(samples.filter((x) => x.fold !== 'c')));
    const curve = formCurve(samples);
    expect(curve).toHaveLength(FORM_GRID.length);
    expect(curve[0]).toEqual({ minCoverage: 0, requireAskedQuantity: false, precision: 0.5, coverage: 0.8571, unanswerable_stated: 1 });
  });
});
