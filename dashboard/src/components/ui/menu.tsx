/** Menus, popovers, tooltips and context menus (Blueprint). */
import type { MouseEvent, ReactElement } from 'react';
import { showContextMenu } from '@blueprintjs/core';

export { ContextMenu, Menu, MenuDivider, MenuItem, Tooltip } from '@blueprintjs/core';
// PopoverNext (floating-ui) positions correctly under React 19; the classic Popover does not.
export { PopoverNext as Popover, type PopoverNextProps as PopoverProps } from '@blueprintjs/core';

/** Opens a context menu at the pointer; for rows that come and go (virtual lists) where a wrapper would not do. */
export function openContextMenu(content: ReactElement, event: MouseEvent): void {
  event.preventDefault();
  showContextMenu({ content, targetOffset: { left: event.clientX, top: event.clientY } });
}
