export * from './icons.ts';
export * from './file-states.ts';
export * from './listing.ts';
export * from './tree.ts';
export * from './side-files.ts';
export * from './images.ts';
