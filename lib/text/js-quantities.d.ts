declare module 'js-quantities' {
  interface Qty {
    kind(): string;
  }
  const Qty: {
    parse(value: string): Qty | null;
    getKinds(): string[];
  };
  export default Qty;
}
