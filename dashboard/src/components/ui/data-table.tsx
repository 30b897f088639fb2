/** The spreadsheet-like table (Blueprint Table2) used for tag lists. */
export { Cell, Column, ColumnHeaderCell, RegionCardinality, SelectionModes, Table2, TableLoadingOption, type Region } from '@blueprintjs/table';
