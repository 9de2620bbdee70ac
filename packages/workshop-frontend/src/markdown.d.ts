/** Text files imported as strings (Vite's `?raw`). */
declare module "*.md?raw" {
  const text: string;
  export default text;
}
