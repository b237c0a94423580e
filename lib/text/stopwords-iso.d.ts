declare module 'stopwords-iso' {
  const lists: Record<string, string[]>;
  export default lists;
}
