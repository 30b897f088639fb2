/** Read-only display pieces (Blueprint). */
import { IconCodepoints } from '@blueprintjs/icons';
import type { IconName } from '@blueprintjs/core';

export {
  Callout,
  Card,
  Divider,
  EntityTitle,
  H4,
  H5,
  HTMLTable,
  Icon,
  Navbar,
  NavbarDivider,
  NavbarGroup,
  NavbarHeading,
  NonIdealState,
  Section,
  SectionCard,
  Spinner,
  SpinnerSize,
  Tab,
  Tabs,
  Tag,
  Text,
  type IconName,
  type Intent,
} from '@blueprintjs/core';

/**
 * A Blueprint icon drawn from its icon font: one text node instead of an SVG component, for lists that
 * render many rows per frame (the virtual tree).
 */
export function FontIcon({ icon, className }: { icon: IconName; className?: string }) {
  const codepoint = IconCodepoints[icon as keyof typeof IconCodepoints];
  return (
    <span className={`ts-font-icon${className ? ` ${className}` : ''}`} aria-hidden="true">
      {codepoint ? String.fromCodePoint(Number(codepoint)) : ''}
    </span>
  );
}
