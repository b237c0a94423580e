import { describe, expect, it } from 'vitest';
import { deviceName, productName } from './name';

describe('deviceName: the device a title names, for sentences and labels', () => {
  it('drops leading articles and trailing document-type words', () => {
    expect(deviceName('The X-9 controller Specification and operation manual')).toBe('X-9 controller');
    expect(deviceName('The Quillon charge regulator board Specification and operation manual')).toBe('Quillon charge regulator board');
    expect(deviceName('A Brontix welder: user’s guide')).toBe('Brontix welder');
    expect(deviceName('User manual for the Zentro 3015BE cutter')).toBe('Zentro 3015BE cutter');
    expect(deviceName("Owner's Handbook - Velmar T-40 tiller")).toBe('Velmar T-40 tiller');
  });

  it('drops edition, revision and version markers', () => {
    expect(deviceName('QX-40A bench supply instructions, Revision B')).toBe('QX-40A bench supply');
    expect(deviceName('Harlo KP-7 keypad datasheet V1.2')).toBe('Harlo KP-7 keypad');
    expect(deviceName('Harlo KP-7 keypad data sheet (2nd edition)')).toBe('Harlo KP-7 keypad');
    expect(deviceName('Dorn mixer service manual version 3.1')).toBe('Dorn mixer');
  });

  it('keeps the designation and the words around it, at most four words', () => {
    expect(deviceName('Acme HX-200 Hydraulic Press Controller - Installation, Operation and Service Manual')).toBe('HX-200 Hydraulic Press Controller');
    expect(deviceName('Installation guide: Acme HX-200')).toBe('Acme HX-200');
    expect(deviceName('Large industrial Quillon ZR-12 dust extractor')).toBe('Quillon ZR-12 dust extractor');
    expect(deviceName('The Quillon battery charge regulator board manual')).toBe('battery charge regulator board');
    expect(deviceName('Very large industrial Quillon ZR-12')).toBe('large industrial Quillon ZR-12');
    // A number that is the model stays ("Fenner 87"), a value is not a designation.
    expect(deviceName('Fenner 87 multimeter manual')).toBe('Fenner 87 multimeter');
  });

  it('reads a file-name slug as words and falls back to the title', () => {
    expect(deviceName('acme-hx200-manual')).toBe('acme hx200');
    expect(deviceName('User Manual')).toBe('User Manual');
    expect(deviceName('The manual')).toBe('manual');
    expect(deviceName('Pump')).toBe('Pump');
  });

  it('never leaves an article to double ("the The …")', () => {
    for (const t of ['The X-9 controller manual', 'THE X-9 CONTROLLER MANUAL', 'An X-9 manual']) expect(deviceName(t)).not.toMatch(/^(?:the|an?)\s/i);
  });
});

describe('productName: a short name for suggested questions', () => {
  it("is the title's device with a model, else the model the text prints most", () => {
    expect(productName('acme-hx200-manual', 'The HX-200 has IP65. HX-200 again, E01.')).toBe('HX-200');
    expect(productName('acme-hx200-manual')).toBe('HX200');
    expect(productName('Pump guide')).toBe('Pump');
    // The title's device, without its article and document words (no "the The …").
    expect(productName('The Quillon charge board Specification and operation manual')).toBe('Quillon charge board');
    expect(productName('The X-9 controller Specification and operation manual', 'X-9 wiring, Y-4 sensor')).toBe('X-9 controller');
    // A value (24V), an error code, a thread size or a rating is no product.
    expect(productName('24V pump guide', 'ERR12 ERR12 on the 24V supply, IP65, M10 bolts')).toBe('24V pump');
    expect(productName('Yaesu radio', "The FT-65's keypad. FT-65 radio, M10 bolts, M10, M10")).toBe('FT-65');
  });
});
