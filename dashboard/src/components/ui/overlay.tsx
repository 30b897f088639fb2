/** Dialogs, drawers and confirmations (Blueprint). */
export { Alert, Dialog, DialogBody, DialogFooter, Drawer, DrawerSize, type DialogProps, type DrawerProps } from '@blueprintjs/core';
