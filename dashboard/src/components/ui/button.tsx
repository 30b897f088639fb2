/** Buttons (Blueprint). */
export { AnchorButton, Button, ButtonGroup, type ButtonProps } from '@blueprintjs/core';
