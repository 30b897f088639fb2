/**
 * The batch side bar's actions (§2 "Batch side bar"): which open a drawer and which a modal, the /apimt
 * route each posts to, which need V2 (§6), and which can show a dry run first (issue 12: tidy, split,
 * replace text, encoding repair, sim/trad and conversion).
 */
import type { IconName } from '../../../components/ui/display.tsx';

export type ActionId =
  | 'settings'
  | 'manual'
  | 'auto'
  | 'tidy'
  | 'split'
  | 'replace'
  | 'convert'
  | 'cue'
  | 'removeNull'
  | 'import'
  | 'encoding'
  | 'duplicate'
  | 'regain'
  | 'strm'
  | 'sim2trad'
  | 'trad2sim';

export interface BatchActionInfo {
  id: ActionId;
  label: string;
  /** One line for the detail mode. */
  hint: string;
  icon: IconName;
  kind: 'drawer' | 'modal';
  /** POST /apimt/<route>/; null for the settings drawer, which only saves browser settings. */
  route: string | null;
  v2?: boolean;
  dryRun?: boolean;
}

export const BATCH_ACTIONS: BatchActionInfo[] = [
  { id: 'settings', label: '批量设置', hint: '扫描子文件夹、WebDAV 与列表数量', icon: 'cog', kind: 'drawer', route: null },
  { id: 'manual', label: '手动修改', hint: '把填写的标签写入所有勾选的歌曲', icon: 'edit', kind: 'drawer', route: 'batch_update_id3' },
  { id: 'auto', label: '自动刮削', hint: '按数据源顺序在线查找并写入标签', icon: 'search-template', kind: 'drawer', route: 'batch_auto_update_id3' },
  { id: 'tidy', label: '整理文件夹', hint: '按标签把歌曲移动到分级文件夹', icon: 'folder-shared-open', kind: 'drawer', route: 'tidy_folder', dryRun: true },
  { id: 'split', label: '拆分文本', hint: '从文件名、标题或歌词中提取标签', icon: 'split-columns', kind: 'drawer', route: 'split_filename', dryRun: true },
  { id: 'replace', label: '替换文本', hint: '在所选字段中替换文字或正则', icon: 'search-text', kind: 'drawer', route: 'replace_text', dryRun: true },
  { id: 'convert', label: '格式转换', hint: '转换格式、比特率与采样率', icon: 'exchange', kind: 'drawer', route: 'format_music_type', dryRun: true },
  { id: 'cue', label: '切割音轨', hint: '按CUE文件把整轨切成单曲', icon: 'cut', kind: 'drawer', route: 'split_cue' },
  { id: 'removeNull', label: '删除空文件夹', hint: '删除空的或没有音乐的文件夹', icon: 'folder-close', kind: 'modal', route: 'remove_null_folder' },
  { id: 'import', label: '导入收藏', hint: '把勾选的歌曲导入音乐收藏', icon: 'import', kind: 'modal', route: 'import_music', v2: true },
  { id: 'encoding', label: '乱码修复', hint: '修复 GBK、Big5、Shift-JIS 等乱码标签', icon: 'translate', kind: 'modal', route: 'fix_encoding', dryRun: true },
  { id: 'duplicate', label: '重复检查', hint: '按文件哈希、文件名或声纹查找重复歌曲', icon: 'duplicate', kind: 'modal', route: 'check_file_duplicates', v2: true },
  { id: 'regain', label: '回放增益', hint: '计算并写入 ReplayGain 音量标签', icon: 'volume-up', kind: 'modal', route: 'batch_update_id3' },
  { id: 'strm', label: '生成strm文件', hint: '为歌曲生成 strm 播放链接文件', icon: 'link', kind: 'modal', route: 'generate_strm', v2: true },
  { id: 'sim2trad', label: '简转繁', hint: '把所选字段的简体中文转为繁体', icon: 'font', kind: 'modal', route: 'simplified_fields', dryRun: true },
  { id: 'trad2sim', label: '繁转简', hint: '把所选字段的繁体中文转为简体', icon: 'font', kind: 'modal', route: 'simplified_fields', dryRun: true },
];

export const actionInfo = (id: ActionId): BatchActionInfo => BATCH_ACTIONS.find((a) => a.id === id)!;
