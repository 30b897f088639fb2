/**
 * The theme drawer's 32 named themes plus charles (§2). Each is a palette applied as CSS variables on
 * <html>; dark ones also switch Blueprint to its dark styles. Colours follow the themes' usual looks.
 */

export interface Palette {
  dark: boolean;
  /** Page, panels, raised controls. */
  base100: string;
  base200: string;
  base300: string;
  text: string;
  primary: string;
  primaryText: string;
  secondary: string;
  accent: string;
  neutral: string;
  /** Corner rounding of panels and controls. */
  radius: string;
}

const p = (dark: boolean, base100: string, base200: string, base300: string, text: string, primary: string, primaryText: string, secondary: string, accent: string, neutral: string, radius = '6px'): Palette => ({
  dark, base100, base200, base300, text, primary, primaryText, secondary, accent, neutral, radius,
});

export const THEMES: Record<string, Palette> = {
  light: p(false, '#ffffff', '#f2f2f2', '#e5e6e6', '#1f2937', '#570df8', '#ffffff', '#f000b8', '#1ece9f', '#3d4451'),
  dark: p(true, '#1d232a', '#191e24', '#15191e', '#a6adbb', '#661ae6', '#ffffff', '#d926aa', '#1fb2a5', '#2a323c'),
  cupcake: p(false, '#faf7f5', '#efeae6', '#e7e2df', '#291334', '#65c3c8', '#223d3e', '#ef9fbc', '#eeaf3a', '#291334', '16px'),
  bumblebee: p(false, '#ffffff', '#f5f5f5', '#e5e6e6', '#333c4d', '#e0a82e', '#181830', '#f9d72f', '#181830', '#181830'),
  emerald: p(false, '#ffffff', '#f3f4f6', '#e5e7eb', '#333c4d', '#66cc8a', '#223d30', '#377cfb', '#ea5234', '#333c4d'),
  corporate: p(false, '#ffffff', '#f3f4f6', '#e5e7eb', '#181a2a', '#4b6bfb', '#ffffff', '#7b92b2', '#67cba0', '#181a2a', '2px'),
  synthwave: p(true, '#1a103d', '#160d34', '#110a2b', '#f9f7fd', '#e779c1', '#1a103d', '#58c7f3', '#f3cc30', '#221551'),
  retro: p(false, '#ece3ca', '#e4d8b4', '#dbca9a', '#282425', '#ef9995', '#282425', '#a4cbb4', '#dc8850', '#2e282a', '3px'),
  cyberpunk: p(false, '#ffee00', '#f2e200', '#e5d600', '#1c1c00', '#ff7598', '#1c1c00', '#75d1f0', '#c07eec', '#423f00', '0px'),
  valentine: p(false, '#fae7f4', '#f2d5e8', '#e9c3dd', '#632c3b', '#e96d7b', '#ffffff', '#a991f7', '#88dbdd', '#af4670', '24px'),
  halloween: p(true, '#212121', '#1b1b1b', '#151515', '#d6d6d6', '#f28c18', '#131616', '#6d3a9c', '#51a800', '#1b1d1d'),
  garden: p(false, '#e9e7e7', '#dcd9d9', '#cfcaca', '#100f0f', '#5c7f67', '#ffffff', '#ecf4e7', '#fae5e5', '#5d5656'),
  forest: p(true, '#171212', '#131010', '#0e0b0b', '#cac9c9', '#1eb854', '#000000', '#1db88e', '#1db8ab', '#19362d', '24px'),
  aqua: p(true, '#345da7', '#2f5597', '#2a4c87', '#c3e3fb', '#09ecf3', '#005355', '#966fb3', '#ffe999', '#3b8ac4'),
  lofi: p(false, '#ffffff', '#f2f2f2', '#e6e6e6', '#000000', '#0d0d0d', '#ffffff', '#1a1919', '#262626', '#000000', '4px'),
  pastel: p(false, '#ffffff', '#f9fafb', '#d1d5db', '#3d3d3d', '#d1c1d7', '#3d3d3d', '#f6cbd1', '#b4e9d6', '#70acc7', '20px'),
  fantasy: p(false, '#ffffff', '#f4f4f5', '#e4e4e7', '#1f2937', '#6e0b75', '#ffffff', '#007ebd', '#f8860d', '#1f2937'),
  wireframe: p(false, '#ffffff', '#eeeeee', '#dddddd', '#000000', '#b8b8b8', '#000000', '#b8b8b8', '#b8b8b8', '#ebebeb', '2px'),
  black: p(true, '#000000', '#0d0d0d', '#1a1a1a', '#cccccc', '#343232', '#ffffff', '#343232', '#343232', '#272626', '0px'),
  luxury: p(true, '#09090b', '#171618', '#2e2d2f', '#dca54c', '#e4c27a', '#09090b', '#152747', '#513448', '#331800'),
  dracula: p(true, '#282a36', '#21222c', '#181920', '#f8f8f2', '#ff79c6', '#282a36', '#bd93f9', '#ffb86c', '#414558'),
  cmyk: p(false, '#ffffff', '#f2f2f2', '#e6e6e6', '#1a1a1a', '#45aeee', '#ffffff', '#e8488a', '#fff232', '#1a1a1a'),
  autumn: p(false, '#f1f1f1', '#dbdbdb', '#c5c5c5', '#141414', '#8c0327', '#ffffff', '#d85251', '#d59b6a', '#826a5c'),
  business: p(true, '#202020', '#1c1c1c', '#181818', '#cdcdcd', '#1c4e80', '#ffffff', '#7c909a', '#ea6947', '#23282e', '4px'),
  acid: p(false, '#fafafa', '#e8e8e8', '#d6d6d6', '#1a1a1a', '#ff00f4', '#ffffff', '#ff7400', '#cbfd03', '#191a3f', '18px'),
  lemonade: p(false, '#f8fdef', '#e9f7d1', '#d5eeb0', '#151512', '#519903', '#ffffff', '#e9e92e', '#f7f9ca', '#191a3f'),
  night: p(true, '#0f172a', '#0c1425', '#0a1120', '#b3c5ef', '#38bdf8', '#010d15', '#818cf8', '#f471b5', '#1e293b'),
  coffee: p(true, '#20161f', '#1c131b', '#180f17', '#c59f60', '#db924b', '#20161f', '#263e3f', '#10576d', '#120c12'),
  winter: p(false, '#ffffff', '#f2f7ff', '#e3e9f4', '#394e6a', '#047aff', '#ffffff', '#463aa2', '#c148ac', '#021431'),
  dim: p(true, '#2a303c', '#242933', '#20252e', '#b2ccd6', '#9fe88d', '#1a2b16', '#ff7d5c', '#c792e9', '#1c212b'),
  nord: p(false, '#eceff4', '#e5e9f0', '#d8dee9', '#2e3440', '#5e81ac', '#ffffff', '#81a1c1', '#88c0d0', '#4c566a', '8px'),
  sunset: p(true, '#121c22', '#0e171e', '#090f13', '#9fb9d0', '#ff865b', '#1a0c06', '#fd6f9c', '#b387fa', '#1b262c', '10px'),
  charles: p(false, '#fdf6ec', '#f6e8d4', '#ecd7b8', '#3b2a1a', '#c0392b', '#ffffff', '#2c7a7b', '#d4a017', '#4a3426', '10px'),
};

export const THEME_NAMES: readonly string[] = Object.keys(THEMES);
export const DEFAULT_THEME = 'light';

export const paletteOf = (name: string): Palette => THEMES[name] ?? THEMES[DEFAULT_THEME];

/** CSS variables for a palette; Blueprint's intent-primary follows the theme's primary colour. */
export function themeVariables(palette: Palette): Record<string, string> {
  return {
    '--ts-base-100': palette.base100,
    '--ts-base-200': palette.base200,
    '--ts-base-300': palette.base300,
    '--ts-text': palette.text,
    '--ts-primary': palette.primary,
    '--ts-primary-text': palette.primaryText,
    '--ts-secondary': palette.secondary,
    '--ts-accent': palette.accent,
    '--ts-neutral': palette.neutral,
    '--ts-radius': palette.radius,
    '--bp-intent-primary-rest': palette.primary,
    '--bp-intent-primary-hover': `color-mix(in srgb, ${palette.primary} 85%, black)`,
    '--bp-intent-primary-active': `color-mix(in srgb, ${palette.primary} 70%, black)`,
    '--bp-intent-primary-foreground': palette.primaryText,
  };
}
