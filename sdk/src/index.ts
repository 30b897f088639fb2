export const hello = (x: number): string => `hi ${x}`;
