/** esbuild's file loader turns an imported asset into its hashed URL. */
declare module '*.svg' {
  const url: string;
  export default url;
}
declare module '*.png' {
  const url: string;
  export default url;
}
