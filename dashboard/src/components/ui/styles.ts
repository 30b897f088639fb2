/** Blueprint's stylesheets, loaded once by the app entry. */
import '@blueprintjs/core/lib/css/blueprint.css';
import '@blueprintjs/icons/lib/css/blueprint-icons.css';
import '@blueprintjs/table/lib/css/table.css';
import { Classes, FocusStyleManager } from '@blueprintjs/core';

// Focus rings only for keyboard users, as Blueprint recommends for mouse-driven apps.
FocusStyleManager.onlyShowFocusOnTabs();

/** The class that switches Blueprint components to their dark look. */
export const DARK_CLASS = Classes.DARK;
/** Blueprint's class for skeleton placeholders while data loads. */
export const SKELETON_CLASS = Classes.SKELETON;
export const POPOVER_DISMISS_CLASS = Classes.POPOVER_DISMISS;
