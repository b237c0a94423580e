import { describe, expect, it } from 'vitest';
import { deviceProfile, deviceProfiles, manualsOfKind } from './identity';
import { fileNameText, identityTokens, nameText } from './tokens';

describe('the identity tokenizer and file-name cleaner', () => {
  it('splits on whitespace and trims punctuation around tokens', () => {
    expect(identityTokens('Is the (HX-200), "Acme" board ready?')).toEqual(['Is', 'the', 'HX-200', 'Acme', 'board', 'ready']);
  });
  it('cleans a file name into words', () => {
    expect(fileNameText('uploads/acme_hx200__manual.PDF')).toBe('acme hx200 manual');
    expect(nameText({ title: 'HX-200 Controller', fileName: 'acme_hx200.pdf' }, ' ')).toBe('HX-200 Controller acme hx200');
  });
});

describe('deviceProfile: a manual says which device it is about', () => {
  it('reads maker, models, variants and kind from the title and cover', () => {
    const p = deviceProfile({ id: 'm1', title: 'Acme HX-200 Hydraulic Press Controller User Manual', fileName: 'acme-hx200.pdf' }, [
      'Acme HX-200 Hydraulic Press Controller\nCovers models HX-200A/B',
      'The HX-200 is a programmable press controller for small workshops.',
    ]);
    expect(p.maker).toBe('Acme');
    expect(p.models[0]).toBe('HX-200');
    expect(p.variants).toEqual(expect.arrayContaining(['hx200a', 'hx200b']));
    expect(p.kind).toBe('hydraulic press controller');
    expect(p.name).toMatch(/HX-200/);
  });
  it('takes the kind from "is a …" on the first pages when the title names none', () => {
    const p = deviceProfile({ id: 'm2', title: 'Zentro QX-40 User Guide', fileName: 'qx40.pdf' }, [
      'Zentro QX-40',
      'The QX-40 is a handheld spectrum analyzer. It is a handheld spectrum analyzer with a touch screen.',
    ]);
    expect(p.kind).toBe('handheld spectrum analyzer');
  });
  it('finds the manuals a generic reference means by their kind', () => {
    const profiles = deviceProfiles({
      manuals: [
        { id: 'a', title: 'Acme HX-200 Press Controller', fileName: 'a.pdf' },
        { id: 'b', title: 'Zentro QX-40 Spectrum Analyzer', fileName: 'b.pdf' },
      ],
      pages: [
        { manualId: 'a', number: 4, text: 'Mount the press controller in the cabinet.' },
        { manualId: 'b', number: 2, text: 'Switch this analyzer on.' },
      ],
    });
    expect(manualsOfKind('How do I reset my analyzer?', profiles)).toEqual(['b']);
    expect(manualsOfKind('What does the controllers menu show?', profiles)).toEqual(['a']);
    expect(manualsOfKind('What is the fuse rating?', profiles)).toEqual([]);
  });
  it('keeps a kind only where the manual calls its device so', () => {
    const profiles = deviceProfiles({
      manuals: [
        { id: 'a', title: 'Acme HX-200 Press Controller', fileName: 'a.pdf' },
        { id: 'c', title: 'Kappa RS-9 Serial Digital', fileName: 'c.pdf' },
      ],
      pages: [
        { manualId: 'a', number: 5, text: 'Your press controller stores 20 programs.' },
        { manualId: 'c', number: 5, text: 'Digital inputs are opto-isolated.' },
      ],
    });
    expect(profiles.get('a')?.kind).toBe('press controller');
    expect(profiles.get('c')?.kind).toBeUndefined();
  });
});
