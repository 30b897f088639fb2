/** Form controls (Blueprint). */
export {
  Checkbox,
  ControlGroup,
  FileInput,
  FormGroup,
  HTMLSelect,
  InputGroup,
  Label,
  NumericInput,
  Radio,
  RadioGroup,
  SegmentedControl,
  Switch,
  TextArea,
  type InputGroupProps,
} from '@blueprintjs/core';
