/** opencc-js ships its dictionaries as modules without type declarations: each is a "from to|from to…" string. */
declare module 'opencc-js/dict/TSCharacters' {
  const dictionary: string;
  export default dictionary;
}
