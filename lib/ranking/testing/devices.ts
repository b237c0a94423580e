/**
 * A small library of device manuals for tests of named-device recognition and device context:
 * two sibling press controllers of one maker (HX-200, HX-300), two network analyzers of one
 * maker (VNA-10, VNA-20), a power supply and a service manual. Every manual has a specifications
 * page with a supply voltage and a fuse, so only the device named can tell them apart.
 */
import type { Corpus } from '../library-index';

const DEVICES = [
  { id: 'hx200', title: 'Acme HX-200 Press Controller', fileName: 'acme-hx200-manual.pdf', volts: '24 V DC', fuse: '2 A' },
  { id: 'hx300', title: 'Acme HX-300 Press Controller', fileName: 'acme-hx300-manual.pdf', volts: '48 V DC', fuse: '4 A' },
  { id: 'vna10', title: 'Kappa VNA-10 Network Analyzer', fileName: 'kappa-vna10-guide.pdf', volts: '5 V USB', fuse: '0.5 A' },
  { id: 'vna20', title: 'Kappa VNA-20 Network Analyzer', fileName: 'kappa-vna20-guide.pdf', volts: '12 V DC', fuse: '1 A' },
  { id: 'dp832', title: 'Brill DP832 Power Supply', fileName: 'brill-dp832.pdf', volts: '230 V AC', fuse: '5 A' },
  { id: 'qx40', title: 'Zentro QX-40 Service Manual', fileName: 'zentro-qx40-service.pdf', volts: '110 V AC', fuse: '3 A' },
] as const;

const chunk = (manualId: string, page: number, heading: string, text: string) => ({
  id: `${manualId}:${page}:${heading}`,
  manualId,
  page,
  heading,
  text,
  ocr: false,
  bboxes: [],
});

export const DEVICE_CORPUS: Corpus = {
  manuals: DEVICES.map(({ id, title, fileName }) => ({ id, title, fileName })),
  pages: DEVICES.flatMap((d) => [
    { manualId: d.id, number: 1, text: `${d.title}\nUser manual\nBoard, power supply and controller overview` },
    // Each manual calls its device by its kind (the title's last word), as manuals do: "Keep the analyzer dry."
    {
      manualId: d.id,
      number: 2,
      text: `Specifications\nSupply voltage ${d.volts}\nFuse ${d.fuse}\nThe board draws power from the supply.\nKeep the ${d.title.split(' ').at(-1)!.toLowerCase()} dry.`,
    },
    // The power supply's manual lists a press controller it can feed: a sibling page naming another device.
    ...(d.id === 'dp832' ? [{ manualId: d.id, number: 3, text: 'Compatible loads\nThe Acme HX-200 runs from output 1.' }] : []),
  ]),
  chunks: DEVICES.map((d) => chunk(d.id, 2, 'Specifications', `Supply voltage ${d.volts}. Fuse ${d.fuse}.`)),
};
