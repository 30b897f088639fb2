import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { InputGroup } from '../../../components/ui/form.tsx';
import { Menu, MenuDivider, MenuItem, Popover } from '../../../components/ui/menu.tsx';
import { useT } from '../../../lib/i18n.ts';
import { applyVariable, variableSuggestions } from '../lib/variables.ts';

interface TagInputProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  /** Values offered in a drop-down beside the input (album-artist split, genres, languages…). */
  choices?: readonly string[];
  choicesTitle?: string;
  placeholder?: string;
  intent?: 'none' | 'danger';
  inputMode?: 'text' | 'numeric';
}

/** A tag field: typing `$` offers the template variables (§4); optional preset choices. */
export function TagInput({ id, value, onChange, choices, choicesTitle, placeholder, intent, inputMode }: TagInputProps) {
  const t = useT();
  const [focused, setFocused] = useState(false);
  // Escape closes the suggestions for the value as typed; typing on (a new value) offers them again.
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const suggestions = focused && dismissedFor !== value ? variableSuggestions(value) : null;

  const choiceMenu =
    choices && choices.length > 0 ? (
      <Popover
        placement="bottom-end"
        content={
          <Menu className="ts-choice-menu">
            {choicesTitle ? <MenuDivider title={t(choicesTitle)} /> : null}
            {choices.map((c) => (
              <MenuItem key={c} text={c} active={c === value} onClick={() => onChange(c)} />
            ))}
          </Menu>
        }
      >
        <Button variant="minimal" size="small" icon="caret-down" aria-label={choicesTitle ? t(choicesTitle) : t('选择')} />
      </Popover>
    ) : undefined;

  return (
    <Popover
      isOpen={suggestions !== null}
      autoFocus={false}
      enforceFocus={false}
      placement="bottom-start"
      arrow={false}
      fill
      content={
        <Menu className="ts-variable-menu" aria-label={t('变量')}>
          {(suggestions ?? []).map((v) => (
            <MenuItem
              key={v}
              text={`\${${v}}`}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => onChange(applyVariable(value, v))}
              data-variable={v}
            />
          ))}
        </Menu>
      }
    >
      <InputGroup
        id={id}
        value={value}
        onValueChange={onChange}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && suggestions !== null) {
            e.preventDefault();
            e.stopPropagation();
            setDismissedFor(value);
          }
        }}
        placeholder={placeholder}
        intent={intent}
        inputMode={inputMode}
        rightElement={choiceMenu}
        size="small"
        autoComplete="off"
        spellCheck={false}
      />
    </Popover>
  );
}
