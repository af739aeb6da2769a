// Vite's ?raw imports: a file's text as a string (island-document.ts places scripts inline with them).
declare module '*?raw' {
  const text: string;
  export default text;
}
