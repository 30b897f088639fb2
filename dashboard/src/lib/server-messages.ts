/**
 * What the server says, in the interface's language. The gateway's envelopes carry a stable
 * `TAGSONIC_ERR_*` code beside an English message meant for logs and API clients; the dashboard shows the
 * text of this catalogue for the code (zh-CN, or English when switched) and falls back to the server's
 * message only for a code it does not know. Texts follow the spec's §8 wording where it gives one.
 *
 * Server success messages are Chinese literals (`上传成功！`); `translate` (i18n-en.ts) covers them.
 */
import type { Lang } from './i18n.ts';

interface Text {
  zh: string;
  en: string;
}

/** Entries whose wording depends on a figure in the server's message (a wait in minutes or seconds). */
type Entry = Text | ((serverMessage: string) => Text);

/** "try again in 3 minutes" / "slow down for 20 seconds": the first figure and unit of the server's text. */
function waitOf(serverMessage: string): { zh: string; en: string } | null {
  const m = /(\d+)\s*(second|minute|hour|s\b|min\b)/i.exec(serverMessage);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = m[2]!.toLowerCase();
  if (unit.startsWith('h')) return { zh: `${n} 小时`, en: `${n} hour${n === 1 ? '' : 's'}` };
  if (unit.startsWith('m')) return { zh: `${n} 分钟`, en: `${n} minute${n === 1 ? '' : 's'}` };
  return { zh: `${n} 秒`, en: `${n} second${n === 1 ? '' : 's'}` };
}

const rateLimited = (serverMessage: string): Text => {
  const wait = waitOf(serverMessage);
  return wait
    ? { zh: `尝试次数过多，请 ${wait.zh}后再试`, en: `Too many attempts; try again in ${wait.en}.` }
    : { zh: '尝试次数过多，请稍后再试', en: 'Too many attempts; try again later.' };
};

/** A task item the workers gave up on: "Gave up after 5 attempt(s): …" keeps its count. */
const gaveUp = (serverMessage: string): Text => {
  const n = /after (\d+) attempt/.exec(serverMessage)?.[1];
  return n
    ? { zh: `重试 ${n} 次后仍然失败，已放弃`, en: `Still failing after ${n} attempt${n === '1' ? '' : 's'}; given up.` }
    : { zh: '多次重试后仍然失败，已放弃', en: 'Still failing after several attempts; given up.' };
};

const CATALOGUE: Record<string, Entry> = {
  // Sign-in, sessions, editions
  TAGSONIC_ERR_AUTH_BAD_CREDENTIALS: { zh: '用户名或密码错误', en: 'Wrong username or password.' },
  TAGSONIC_ERR_AUTH_RATE_LIMITED: rateLimited,
  TAGSONIC_ERR_AUTH_REQUIRED: { zh: '请先登录', en: 'Please sign in.' },
  TAGSONIC_ERR_AUTH_INVALID: { zh: '登录已过期，请重新登录', en: 'Your session has ended; please sign in again.' },
  TAGSONIC_ERR_AUTH_CSRF: { zh: '页面已过期（CSRF 校验失败），请刷新页面后重试', en: 'This page is out of date (CSRF check failed); reload it and try again.' },
  TAGSONIC_ERR_AUTH_ADMIN_ONLY: { zh: '只有管理员可以执行此操作', en: 'Only an administrator can do this.' },
  TAGSONIC_ERR_AUTH_V1_RESTRICTED: { zh: 'V1 版本限制：此功能需要 V2 版本，请使用激活码激活', en: 'V1 restriction: this feature needs V2; activate it with a code.' },
  // Activation codes
  TAGSONIC_ERR_LICENSE_MALFORMED: { zh: '激活码格式错误，请检查是否完整复制', en: 'This is not a valid activation code; check that it was copied completely.' },
  TAGSONIC_ERR_LICENSE_BAD_SIGNATURE: { zh: '激活码无效（不是为此安装签发的）', en: 'The activation code is not valid for this installation.' },
  TAGSONIC_ERR_LICENSE_EXPIRED: { zh: '激活码已过期', en: 'The activation code has expired.' },
  TAGSONIC_ERR_LICENSE_USED: { zh: '该激活码已被其他账号使用', en: 'This activation code has already been used by another account.' },
  TAGSONIC_ERR_LICENSE_NO_INSTALLATION: { zh: '找不到此安装（激活码须在服务器的 TAGSONIC_HOME 中签发）', en: 'No installation found (codes are issued with the server\'s TAGSONIC_HOME).' },
  TAGSONIC_ERR_LICENSE_BAD_DAYS: { zh: '激活天数无效', en: 'The number of days is not valid.' },
  // Accounts (admin backend)
  TAGSONIC_ERR_USER_NOT_FOUND: { zh: '用户不存在', en: 'No such user.' },
  TAGSONIC_ERR_USER_EXISTS: { zh: '用户名已存在', en: 'That username is taken.' },
  TAGSONIC_ERR_USER_BAD_NAME: { zh: '用户名只能包含字母、数字和 _ . @ -，最多 64 个字符', en: 'A username has letters, digits and _ . @ - only, at most 64 characters.' },
  TAGSONIC_ERR_USER_WEAK_PASSWORD: { zh: '密码长度需在 8 到 1024 个字符之间', en: 'A password has 8 to 1024 characters.' },
  TAGSONIC_ERR_USER_BAD_ROLE: { zh: '版本只能是 V1 或 V2', en: 'The role must be V1 or V2.' },
  TAGSONIC_ERR_USER_BAD_DATE: { zh: '日期无效', en: 'The date is not valid.' },
  TAGSONIC_ERR_USER_DELETE_SELF: { zh: '不能删除自己的账号', en: 'You cannot delete your own account.' },
  TAGSONIC_ERR_USER_LAST_ADMIN: { zh: '这是唯一的管理员，不能删除或降级', en: 'This is the only administrator; it cannot be deleted or demoted.' },
  // Request shape and transport
  TAGSONIC_ERR_HTTP: { zh: '请求无效', en: 'The request is not valid.' },
  TAGSONIC_ERR_HTTP_INVALID: { zh: '请求参数无效', en: 'The request has invalid parameters.' },
  TAGSONIC_ERR_HTTP_NO_ROUTE: { zh: '接口不存在', en: 'No such API route.' },
  TAGSONIC_ERR_HTTP_NOT_FOUND: { zh: '接口不存在', en: 'No such API route.' },
  TAGSONIC_ERR_INTERNAL: { zh: '服务器内部错误', en: 'Internal server error.' },
  TAGSONIC_ERR_DASHBOARD_HTTP: { zh: '请求异常，请刷新重试', en: 'The request failed; reload and try again.' },
  TAGSONIC_ERR_DASHBOARD_NETWORK: { zh: '网络错误，无法连接服务器', en: 'Network error: the server cannot be reached.' },
  TAGSONIC_ERR_DASHBOARD_TIMEOUT: { zh: '服务器在 200 秒内没有响应', en: 'No answer within 200 s.' },
  TAGSONIC_ERR_DASHBOARD_NOT_JSON: { zh: '服务器返回的内容无法识别', en: 'The server answered with something that is not JSON.' },
  // Doc 2 §8's text for a missing streaming password.
  TAGSONIC_ERR_DASHBOARD_NO_SUBSONIC: { zh: '请在后台管理创建一个subsonic密码，刷新页面试试吧', en: 'Create a Subsonic password in the admin backend, then reload the page.' },
  TAGSONIC_ERR_STORE_UNAVAILABLE: { zh: '数据库暂时不可用，请稍后再试', en: 'The database is unavailable; try again shortly.' },
  TAGSONIC_ERR_STORE_DUPLICATE_KEY: { zh: '已存在相同的记录', en: 'A record with the same key already exists.' },
  TAGSONIC_ERR_BUS_UNAVAILABLE: { zh: '后台任务服务暂时不可用，请稍后再试', en: 'The task service is unavailable; try again shortly.' },
  // Paths and media roots
  TAGSONIC_ERR_MEDIA_BAD_PATH: { zh: '路径无效', en: 'The path is not valid.' },
  TAGSONIC_ERR_MEDIA_OUTSIDE_ROOTS: { zh: '不允许访问媒体目录以外的位置', en: 'Access outside the media folders is not allowed.' },
  TAGSONIC_ERR_MEDIA_NOT_FOUND: { zh: '文件或文件夹不存在', en: 'No such file or folder.' },
  TAGSONIC_ERR_MEDIA_NO_ROOT: { zh: '媒体目录不存在', en: 'No such media folder.' },
  TAGSONIC_ERR_MEDIA_FILE_GONE: { zh: '文件已不存在，请重新扫描音乐库', en: 'The file is gone; rescan the library.' },
  TAGSONIC_ERR_MEDIA_COVER_TOO_LARGE: { zh: '封面图片超过 64 MB', en: 'The cover picture is larger than 64 MB.' },
  TAGSONIC_ERR_MEDIA_DOWNLOAD_EMPTY: { zh: '没有可下载的歌曲', en: 'Nothing to download: it holds no songs.' },
  TAGSONIC_ERR_MEDIA_DOWNLOAD_KIND: { zh: '无法下载此项目', en: 'This item cannot be downloaded.' },
  // Files and folders
  TAGSONIC_ERR_FILES_BAD_PATH: { zh: '路径无效', en: 'The path is not valid.' },
  TAGSONIC_ERR_FILES_BAD_NAME: { zh: '文件名无效（不能为空，也不能包含 “/”）', en: 'The file name is not valid (not empty, no "/").' },
  TAGSONIC_ERR_FILES_NAME_TAKEN: { zh: '该文件夹中已有同名文件，请换一个名字', en: 'A file with that name already exists in this folder; choose another name.' },
  TAGSONIC_ERR_FILES_BAD_STATE: { zh: '状态只能是 success、failed 或 null', en: 'A state is success, failed or null.' },
  TAGSONIC_ERR_FILES_NOT_AUDIO: { zh: '不是音频文件', en: 'This is not an audio file.' },
  TAGSONIC_ERR_FILES_NOT_A_FOLDER: { zh: '不是文件夹', en: 'This is not a folder.' },
  TAGSONIC_ERR_FILES_NOT_IMAGE: { zh: '不是图片或音频文件', en: 'This is neither a picture nor an audio file.' },
  TAGSONIC_ERR_FILES_NO_COVER: { zh: '该文件没有封面', en: 'This file has no cover.' },
  TAGSONIC_ERR_FILES_NO_FOLDER_COVER: { zh: '所在文件夹没有可导入的 cover.jpg', en: 'The folder has no cover.jpg to import.' },
  TAGSONIC_ERR_FILES_NO_LRC: { zh: '旁边没有同名的 .lrc 歌词文件可导入', en: 'There is no .lrc file of the same name beside it to import.' },
  TAGSONIC_ERR_FILES_LRC_TOO_LARGE: { zh: '歌词文件超过 2 MB，不是歌词文件', en: 'The lyrics file is larger than 2 MB; it is not a lyrics file.' },
  TAGSONIC_ERR_FILES_COVER_NOT_IMAGE: { zh: '封面文件不是可识别的图片', en: 'The cover file is not a picture Tagsonic can read.' },
  TAGSONIC_ERR_FILES_COVER_NOT_JPEG: { zh: 'cover.jpg 必须是 JPEG 格式', en: 'cover.jpg must be written as JPEG.' },
  TAGSONIC_ERR_FILES_SIDE_FILE_FAILED: { zh: '标签已保存，但旁边的歌词文件（.lrc）或封面文件（cover.jpg）无法写入', en: 'The tags were saved, but the lyrics file (.lrc) or cover file (cover.jpg) beside it could not be written.' },
  TAGSONIC_ERR_FILES_COVER_TOO_LARGE: { zh: '封面文件超过 32 MB', en: 'The cover file is larger than 32 MB.' },
  // Uploads and pictures
  TAGSONIC_ERR_UPLOAD_MISSING: { zh: '没有收到文件', en: 'No file was sent.' },
  TAGSONIC_ERR_UPLOAD_EMPTY: { zh: '上传的文件是空的', en: 'The uploaded file is empty.' },
  TAGSONIC_ERR_UPLOAD_NOT_IMAGE: { zh: '只能上传图片文件', en: 'Only image files can be uploaded.' },
  TAGSONIC_ERR_UPLOAD_NOT_MULTIPART: { zh: '上传格式错误（需要表单上传）', en: 'The upload must be a form (multipart) upload.' },
  TAGSONIC_ERR_UPLOAD_TOO_LARGE: { zh: '文件太大', en: 'The file is too large.' },
  TAGSONIC_ERR_UPLOAD_TOO_MANY_PIXELS: { zh: '图片像素过多（最多 20 MP）', en: 'The picture has too many pixels (at most 20 MP).' },
  TAGSONIC_ERR_UPLOAD_NOT_FOUND: { zh: '上传的图片不存在', en: 'No such uploaded picture.' },
  TAGSONIC_ERR_IMAGE_UNKNOWN: { zh: '无法识别的图片（支持 JPEG、PNG、WebP、GIF、BMP）', en: 'This is not a picture Tagsonic can read (JPEG, PNG, WebP, GIF or BMP).' },
  TAGSONIC_ERR_IMAGE_CONVERT: { zh: '图片转换失败', en: 'The picture could not be converted.' },
  TAGSONIC_ERR_IMAGE_FFMPEG: { zh: '服务器缺少 ffmpeg，无法转换图片', en: 'ffmpeg is not available to convert pictures.' },
  TAGSONIC_ERR_COVER_FFMPEG: { zh: '服务器缺少 ffmpeg，无法生成默认封面', en: 'ffmpeg is not available to draw the default cover.' },
  TAGSONIC_ERR_BACKGROUND_NONE: { zh: '没有自定义背景图片', en: 'No custom background is set.' },
  // Tags
  TAGSONIC_ERR_TAGS_NOT_FOUND: { zh: '文件不存在', en: 'The file does not exist.' },
  TAGSONIC_ERR_TAGS_NOT_A_FILE: { zh: '不是文件', en: 'This is not a file.' },
  TAGSONIC_ERR_TAGS_EMPTY_FILE: { zh: '文件是空的', en: 'The file is empty.' },
  TAGSONIC_ERR_TAGS_ACCESS_DENIED: { zh: '没有读写该文件的权限', en: 'Tagsonic may not read or write this file.' },
  TAGSONIC_ERR_TAGS_UNSUPPORTED_FORMAT: { zh: '不支持此文件格式', en: 'This file format is not supported.' },
  TAGSONIC_ERR_TAGS_UNREADABLE: { zh: '无法读取此文件的标签（文件可能已损坏）', en: "This file's tags cannot be read (the file may be damaged)." },
  TAGSONIC_ERR_TAGS_TRUNCATED: { zh: '文件不完整（可能已截断）', en: 'The file is incomplete (it may be truncated).' },
  // The library scan's reason on a file it left out (the file browser's 不是歌曲 mark)
  TAGSONIC_ERR_LIBRARY_NOT_AUDIO: { zh: '不是歌曲：文件里没有可播放的音频（可能已损坏、被截断，或根本不是音频）', en: 'Not a song: the file holds no playable audio (it may be damaged, cut short or not audio at all).' },
  TAGSONIC_ERR_TAGS_FILE_TOO_LARGE: { zh: '文件太大，无法编辑标签', en: 'The file is too large to edit its tags.' },
  TAGSONIC_ERR_TAGS_TAG_TOO_LARGE: { zh: '文件的标签超出大小限制（封面、单个字段、帧数量或标签总大小），文件可能已损坏', en: "The file's tags are beyond the size limits (cover, a single field, frame count or total size); the file may be malformed." },
  TAGSONIC_ERR_TAGS_EDIT_TOO_LARGE: { zh: '修改内容太大（字段文字、名字数量或封面超出限制）', en: 'The change is too large (field text, number of names or cover beyond the limits).' },
  TAGSONIC_ERR_TAGS_INVALID_VALUE: { zh: '标签值无效', en: 'A tag value is not valid.' },
  TAGSONIC_ERR_TAGS_FIELD_UNSUPPORTED: { zh: '此文件格式不支持该字段', en: 'This file format does not support that field.' },
  TAGSONIC_ERR_TAGS_ARTWORK_INVALID: { zh: '封面图片无效', en: 'The cover picture is not valid.' },
  TAGSONIC_ERR_TAGS_ARTWORK_UNSUPPORTED: { zh: '此文件格式不支持写入封面', en: 'This file format cannot hold a cover.' },
  TAGSONIC_ERR_TAGS_BAD_COVER: { zh: '新封面不是图片', en: 'The new cover is not a picture.' },
  TAGSONIC_ERR_TAGS_FILE_CHANGED: { zh: '文件在保存过程中被其他程序修改，未写入', en: 'The file changed while saving; nothing was written.' },
  TAGSONIC_ERR_TAGS_PAYLOAD_CHANGED: { zh: '文件的音频数据有变化，未写入', en: "The file's audio data changed; nothing was written." },
  TAGSONIC_ERR_TAGS_VERIFY_MISMATCH: { zh: '写入后校验失败，原文件已保留', en: 'The write did not verify; the original file was kept.' },
  TAGSONIC_ERR_TAGS_WRITE_FAILED: { zh: '写入标签失败，原文件已保留', en: 'Writing the tags failed; the original file was kept.' },
  TAGSONIC_ERR_TAGS_WRITE_TIMEOUT: { zh: '写入标签超时，请稍后再试', en: 'Writing the tags timed out; try again.' },
  TAGSONIC_ERR_TAGS_READ_TIMEOUT: { zh: '读取标签超时，请稍后再试', en: 'Reading the tags timed out; try again.' },
  TAGSONIC_ERR_TAGS_WRITER_CRASHED: { zh: '标签写入进程异常退出，原文件已保留，请重试', en: 'The tag writer stopped unexpectedly; the original file was kept. Try again.' },
  TAGSONIC_ERR_TAGS_ENGINE_UNAVAILABLE: { zh: '标签引擎暂时不可用，请稍后再试', en: 'The tag engine is unavailable; try again shortly.' },
  TAGSONIC_ERR_TAGS_POOL_CLOSED: { zh: '服务器正在关闭，请稍后再试', en: 'The server is shutting down; try again shortly.' },
  TAGSONIC_ERR_TAGS_BLOB_MISSING: { zh: '撤销所需的原始数据已不存在', en: 'The data needed to undo this change is gone.' },
  TAGSONIC_ERR_TAGS_JOURNAL_NOT_FOUND: { zh: '找不到这次修改的记录', en: 'This change is not in the journal.' },
  TAGSONIC_ERR_TAGS_NOT_UNDOABLE: { zh: '这次修改无法撤销', en: 'This change cannot be undone.' },
  TAGSONIC_ERR_TAGS_ALREADY_UNDONE: { zh: '这次修改已经撤销过了', en: 'This change has already been undone.' },
  TAGSONIC_ERR_TAGS_UNDO_CONFLICT: { zh: '文件在修改后又被改动过，撤销会覆盖这些改动', en: 'The file changed after this edit; undoing would overwrite those changes.' },
  TAGSONIC_ERR_UNDO_NOT_YOURS: { zh: '只能撤销自己的修改', en: 'You can only undo your own changes.' },
  TAGSONIC_ERR_UNDO_BAD_REQUEST: { zh: '撤销请求无效', en: 'The undo request is not valid.' },
  TAGSONIC_ERR_UNDO_FAILED: { zh: '撤销失败', en: 'The undo failed.' },
  TAGSONIC_ERR_TEMPLATE_UNKNOWN_VARIABLE: { zh: '模板中有未知变量', en: 'The template has an unknown variable.' },
  // Rename rules
  TAGSONIC_ERR_REGEX_EMPTY: { zh: '正则表达式为空', en: 'The regular expression is empty.' },
  TAGSONIC_ERR_REGEX_INVALID: { zh: '正则表达式无效（不支持前后查找和反向引用）', en: 'The regular expression is not valid (no look-arounds or back-references).' },
  TAGSONIC_ERR_REGEX_TOO_LONG: { zh: '正则表达式太长', en: 'The regular expression is too long.' },
  TAGSONIC_ERR_REGEX_INPUT_TOO_LONG: { zh: '文本太长', en: 'The text is too long.' },
  TAGSONIC_ERR_REGEX_BAD_GROUP: { zh: '命名分组必须是标签字段名', en: 'Named groups must be tag fields.' },
  TAGSONIC_ERR_REGEX_BAD_RULES: { zh: '规则无效', en: 'The rules are not valid.' },
  // Tasks
  TAGSONIC_ERR_TASK_NOT_FOUND: { zh: '任务不存在', en: 'No such task.' },
  TAGSONIC_ERR_TASK_NOT_RUNNING: { zh: '任务没有在运行', en: 'The task is not running.' },
  // Reasons of failed task items (the bell, a save's per-file report)
  TAGSONIC_ERR_TASK_NOT_RESUMABLE: { zh: '任务被服务器崩溃中断，且无法继续', en: 'A server crash interrupted it, and it cannot be resumed.' },
  TAGSONIC_ERR_TASK_GAVE_UP: gaveUp,
  // A plugin's web requests (http.fetch): why a tag source's lookup failed
  TAGSONIC_ERR_PLUGIN_HTTP_BAD_URL: { zh: '插件请求的地址无效（只允许 http:// 或 https://，且不能包含用户名和密码）', en: 'The plugin asked for an invalid address (http:// or https:// only, without a user name or password).' },
  TAGSONIC_ERR_PLUGIN_HTTP_BAD_REQUEST: { zh: '插件发出的请求无效（方法、请求头或内容超出限制）', en: 'The plugin sent an invalid request (method, headers or body beyond the limits).' },
  TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED: { zh: '插件没有访问该网站的权限（不在其声明的网站列表中）', en: 'The plugin has no permission to reach that site (it is not among the hosts it declared).' },
  TAGSONIC_ERR_PLUGIN_HTTP_ADDRESS_REFUSED: { zh: '已阻止插件访问本机或内网地址', en: 'The plugin was stopped from reaching this machine or the local network.' },
  TAGSONIC_ERR_PLUGIN_HTTP_TOO_MANY_REDIRECTS: { zh: '数据源的重定向次数过多', en: 'The source redirected too many times.' },
  TAGSONIC_ERR_PLUGIN_HTTP_TOO_LARGE: { zh: '数据源返回的内容超出大小限制', en: 'The source answered with more data than allowed.' },
  TAGSONIC_ERR_PLUGIN_HTTP_TIMEOUT: { zh: '数据源响应超时，请稍后再试', en: 'The source did not answer in time; try again later.' },
  TAGSONIC_ERR_PLUGIN_HTTP_NETWORK: { zh: '无法连接数据源，请检查网络', en: 'The source cannot be reached; check the network.' },
  TAGSONIC_ERR_PLUGIN_HTTP_NOT_JSON: { zh: '数据源返回的内容无法识别', en: 'The source answered with something that is not JSON.' },
  TAGSONIC_ERR_PLUGIN_THREW: { zh: '插件运行出错', en: 'The plugin failed.' },
  TAGSONIC_ERR_PLUGIN_TIMEOUT: { zh: '插件运行超时，已被停止', en: 'The plugin took too long and was stopped.' },
  TAGSONIC_ERR_PLUGIN_MEMORY: { zh: '插件超出内存限制，已被停止', en: 'The plugin went over its memory limit and was stopped.' },
  TAGSONIC_ERR_PLUGIN_RESULT_TOO_LARGE: { zh: '插件返回的结果超出大小限制', en: 'The plugin returned more data than allowed.' },
  TAGSONIC_ERR_PLUGIN_COMPILE: { zh: '插件代码无法加载（语法错误）', en: "The plugin's code cannot be loaded (syntax error)." },
  TAGSONIC_ERR_PLUGIN_NO_EXPORT: { zh: '插件不支持此操作', en: 'The plugin does not offer this operation.' },
  TAGSONIC_ERR_PLUGIN_BAD_OPTIONS: { zh: '传给插件的参数无效', en: 'The options passed to the plugin are invalid.' },
  TAGSONIC_ERR_PLUGIN_DISABLED: { zh: '插件已停用（连续失败过多或被管理员停用）', en: 'The plugin is disabled (too many failures in a row, or by an administrator).' },
  TAGSONIC_ERR_PLUGIN_CLOSED: { zh: '插件已关闭，请稍后再试', en: 'The plugin has been shut down; try again later.' },
  TAGSONIC_ERR_PLUGIN_DENIED: { zh: '插件没有执行此操作的权限', en: 'The plugin has no permission for this.' },
  TAGSONIC_ERR_PLUGIN_INVALID: { zh: '插件请求的参数无效', en: 'The plugin asked with invalid arguments.' },
  TAGSONIC_ERR_PLUGIN_NOT_FOUND: { zh: '插件要找的文件或数据不存在', en: 'What the plugin asked for does not exist.' },
  TAGSONIC_ERR_PLUGIN_NOT_INSTALLED: { zh: '没有安装这个插件（或数据源）', en: 'No such plugin (or source) is installed.' },
  TAGSONIC_ERR_PLUGIN_CONFLICT: { zh: '插件的操作与现有文件冲突', en: "The plugin's operation conflicts with an existing file." },
  TAGSONIC_ERR_PLUGIN_LIMIT: { zh: '插件超出了使用限制', en: 'The plugin went over one of its limits.' },
  TAGSONIC_ERR_PLUGIN_UPSTREAM: { zh: '数据源的返回格式已变化，请更新该插件', en: "The source's answer has changed shape; update the plugin." },
  TAGSONIC_ERR_PLUGIN_FAILED: { zh: '插件运行失败', en: 'The plugin failed.' },
  TAGSONIC_ERR_PLUGIN_MANIFEST_INVALID: { zh: '插件的清单（manifest.json）无效', en: "The plugin's manifest (manifest.json) is invalid." },
  TAGSONIC_ERR_PLUGIN_CONFIG_INVALID: { zh: '插件的设置无效，请在插件页面修改', en: "The plugin's settings are invalid; correct them on the plugin's page." },
  TAGSONIC_ERR_PLUGIN_BUILTIN_NOT_FOUND: { zh: '没有这个内置数据源', en: 'There is no such built-in source.' },
  TAGSONIC_ERR_PLUGIN_BUILTIN_UNAVAILABLE: { zh: '内置数据源无法构建', en: 'The built-in source cannot be built.' },
  // Internet radio stations (admin backend)
  TAGSONIC_ERR_RADIO_NOT_FOUND: { zh: '电台不存在', en: 'No such radio station.' },
  TAGSONIC_ERR_RADIO_TOO_MANY: { zh: '电台数量已达上限', en: 'There are as many radio stations as allowed.' },
  TAGSONIC_ERR_RADIO_NO_NAME: { zh: '请填写电台名称', en: 'A radio station needs a name.' },
  TAGSONIC_ERR_RADIO_BAD_NAME: { zh: '电台名称最多 200 个字符，且不能包含控制字符', en: 'A station name is at most 200 characters, without control characters.' },
  TAGSONIC_ERR_RADIO_NO_STREAM_URL: { zh: '请填写电台的流地址', en: 'A radio station needs a stream URL.' },
  TAGSONIC_ERR_RADIO_BAD_URL: { zh: '地址必须以 http:// 或 https:// 开头（最多 2048 个字符）', en: 'The address must be an http:// or https:// address (at most 2048 characters).' },
  // Scraping through the workers' plugin pool (request/reply on the bus)
  TAGSONIC_ERR_BUS_NO_RESPONDER: { zh: '没有正在运行的后台 worker，无法处理该请求', en: 'No worker is running to handle this request.' },
  TAGSONIC_ERR_BUS_TIMEOUT: { zh: '后台处理超时，请稍后再试', en: 'The worker did not answer in time; try again shortly.' },
  TAGSONIC_ERR_BUS_REPLY_TOO_LARGE: { zh: '后台返回的结果过大，无法传输', en: "The worker's answer is too large to send back." },
  TAGSONIC_ERR_SCRAPE_TITLE_REQUIRED: { zh: '标题不能为空！', en: 'The title cannot be empty.' },
  TAGSONIC_ERR_SCRAPE_LYRIC_REQUIRED: { zh: '歌词不能为空！', en: 'The lyrics cannot be empty.' },
  TAGSONIC_ERR_PLUGIN_NOT_A_SOURCE: { zh: '该插件不是标签数据源', en: 'This plugin is not a tag source.' },
  TAGSONIC_ERR_PLUGIN_SOURCE_LOOP: { zh: '数据源不能搜索它自己', en: 'A source cannot search itself.' },
  TAGSONIC_ERR_PLUGIN_RESULT_INVALID: { zh: '插件返回的结果格式不正确，请更新该插件', en: "The plugin's answer is not in the expected form; update the plugin." },
  TAGSONIC_ERR_PLUGIN_INVOKE_INVALID: { zh: '插件调用缺少插件 ID 或函数名', en: 'A plugin call needs a plugin id and a function name.' },
  // Lyric translation through the configured language model
  TAGSONIC_ERR_LLM_NOT_CONFIGURED: { zh: '未配置大模型，请在系统设置中填写 llm_base_url 和模型名称', en: 'No language model is configured; set its address and model in the system settings.' },
  TAGSONIC_ERR_LLM_TIMEOUT: { zh: '大模型响应超时，请稍后再试', en: 'The language model did not answer in time; try again later.' },
  TAGSONIC_ERR_LLM_UNREACHABLE: { zh: '无法连接大模型服务，请检查 llm_base_url', en: 'The language model cannot be reached; check its address.' },
  TAGSONIC_ERR_LLM_HTTP: { zh: '大模型服务返回错误，请检查 API Key 和模型名称', en: 'The language model answered with an error; check the API key and the model.' },
  TAGSONIC_ERR_LLM_BAD_RESPONSE: { zh: '大模型返回的翻译格式不正确，请重试或更换模型', en: "The language model's answer is not a usable translation; try again or use another model." },
  // Plugin registry and uploaded packages (/mod, /actionMod)
  TAGSONIC_ERR_PLUGIN_VERSION_EXISTS: { zh: '该版本已安装且代码不同，请提高版本号后再上传', en: 'This version is already installed with different code; raise the version and upload again.' },
  TAGSONIC_ERR_PLUGIN_VERSION_NOT_FOUND: { zh: '插件没有这个版本', en: 'The plugin has no such version.' },
  TAGSONIC_ERR_PLUGIN_BUILTIN_VERSION: { zh: '内置插件随 Tagsonic 提供，不能删除（可以停用）', en: 'A built-in plugin ships with Tagsonic and cannot be removed (disable it instead).' },
  TAGSONIC_ERR_PLUGIN_KIND_CHANGED: { zh: '新版本不能改变插件类型（数据源 / 批量操作），请换一个插件 ID', en: 'A new version cannot change the plugin kind (source / batch action); use another plugin id.' },
  TAGSONIC_ERR_PLUGIN_BASE_URL_INVALID: { zh: '地址必须以 http:// 或 https:// 开头，且不能包含用户名和密码', en: 'The address must start with http:// or https:// and hold no user name or password.' },
  TAGSONIC_ERR_PLUGIN_BUSY: { zh: '插件正在被他人修改，请稍后再试', en: 'Someone else is changing this plugin right now; try again.' },
  TAGSONIC_ERR_PLUGIN_PACKAGE_UNSUPPORTED_TYPE: { zh: '插件包必须是 .zip 或单个 .js 文件', en: 'A plugin package is a .zip or a single .js file.' },
  TAGSONIC_ERR_PLUGIN_PACKAGE_TOO_LARGE: { zh: '插件包过大（上传最多 2 MiB，脚本最多 4 MiB）', en: 'The plugin package is too large (at most 2 MiB uploaded, 4 MiB of script).' },
  TAGSONIC_ERR_PLUGIN_PACKAGE_UNPACKED_TOO_LARGE: { zh: '插件包解压后超过 8 MiB，已拒绝', en: 'The plugin package unpacks to more than 8 MiB and was refused.' },
  TAGSONIC_ERR_PLUGIN_PACKAGE_TOO_MANY_ENTRIES: { zh: '插件包内文件过多（最多 200 个）', en: 'The plugin package holds too many files (at most 200).' },
  TAGSONIC_ERR_PLUGIN_PACKAGE_UNSAFE_PATH: { zh: '插件包含有不安全的路径（../ 或绝对路径），已拒绝', en: 'The plugin package holds an unsafe path (../ or an absolute path) and was refused.' },
  TAGSONIC_ERR_PLUGIN_PACKAGE_SYMLINK: { zh: '插件包含有符号链接，已拒绝', en: 'The plugin package holds a symbolic link and was refused.' },
  TAGSONIC_ERR_PLUGIN_PACKAGE_CORRUPT: { zh: '插件包已损坏或无法读取', en: 'The plugin package is damaged or cannot be read.' },
  TAGSONIC_ERR_PLUGIN_PACKAGE_NO_MANIFEST: { zh: '插件包中没有清单（manifest.json）', en: 'The plugin package has no manifest (manifest.json).' },
  TAGSONIC_ERR_PLUGIN_PACKAGE_NO_ENTRY: { zh: '插件包中缺少清单指定的入口文件', en: "The plugin package lacks the entry file its manifest names." },
  // A source's cover downloaded by the server (update_id3 with a candidate's album_img URL)
  TAGSONIC_ERR_TAGS_COVER_FETCH: (serverMessage: string): Text => coverFetch(serverMessage),
  // A source asked more often than its pacing allows ("iTunes is rate-limited to one request every 3 s; try again in 7 s.")
  TAGSONIC_ERR_PLUGIN_HTTP_BUSY: (serverMessage: string): Text => {
    const source = /^(.+?) is rate-limited/.exec(serverMessage)?.[1] ?? '';
    const wait = /try again in (\d+) s/.exec(serverMessage)?.[1];
    return wait
      ? { zh: `数据源${source ? ` ${source} ` : ''}正忙（限速，其他查询正在排队），请 ${wait} 秒后再试`, en: `${source || 'The source'} is busy (rate-limited, other lookups are queued); try again in ${wait} s.` }
      : { zh: '数据源正忙（限速，其他查询正在排队），请稍后再试', en: 'The source is busy (rate-limited, other lookups are queued); try again shortly.' };
  },
  // Batch action tasks (the task engine: creating, applying, undoing, the report's actions)
  TAGSONIC_ERR_TASK_NOTHING_SELECTED: { zh: '请先勾选文件或文件夹！', en: 'Tick files or folders first!' },
  TAGSONIC_ERR_TASK_NO_ACTION: { zh: '没有批量操作接受这样的请求', en: 'No batch action of this route takes this request.' },
  TAGSONIC_ERR_TASK_TOO_MANY_ITEMS: { zh: '选中的音频文件太多，请少选几个文件夹', en: 'The selection holds too many audio files; select fewer folders.' },
  TAGSONIC_ERR_TASK_PLAN_INVALID: { zh: '批量操作插件给出的任务列表无效', en: 'The batch action planned an invalid item list.' },
  TAGSONIC_ERR_TASK_NOT_A_DRY_RUN: { zh: '只有预览任务可以应用', en: 'Only a dry run can be applied.' },
  TAGSONIC_ERR_TASK_DRY_RUN_UNFINISHED: { zh: '预览还在运行，完成后再应用', en: 'The dry run is still running; apply it once it has finished.' },
  TAGSONIC_ERR_TASK_ALREADY_APPLIED: { zh: '这个预览已经应用过了', en: 'This dry run was applied already.' },
  TAGSONIC_ERR_TASK_NOT_YOURS: { zh: '只能操作自己的任务', en: 'You can only act on your own tasks.' },
  TAGSONIC_ERR_TASK_RUNNING: { zh: '任务还在运行，请先停止或等待完成', en: 'The task is still running; stop it or wait for it to finish first.' },
  TAGSONIC_ERR_TASK_BAD_SECTION: { zh: '任务详情中没有这个分类', en: 'The report has no such section.' },
  TAGSONIC_ERR_TASK_ITEM_NOT_FOUND: { zh: '任务项不存在', en: 'No such task item.' },
  TAGSONIC_ERR_TASK_ITEM_NOT_QUEUED: { zh: '该项已开始运行或已完成，无法停止', en: 'The item is running or finished already; it cannot be stopped.' },
  TAGSONIC_ERR_TASK_ITEM_NOT_FINISHED: { zh: '只有已完成的项可以修改状态', en: 'Only a finished item can change its status.' },
  TAGSONIC_ERR_TASK_ITEM_RESULT_INVALID: { zh: '批量操作插件返回的结果无效', en: 'The batch action returned an invalid result.' },
  TAGSONIC_ERR_TASK_ITEM_CRASHED: { zh: '处理该项时服务器多次崩溃，已放弃', en: 'A worker stopped while running this item several times; it is not tried again.' },
  TAGSONIC_ERR_PLUGIN_NOT_AN_ACTION: { zh: '该插件不是批量操作插件', en: 'The plugin is not a batch action.' },
  TAGSONIC_ERR_TASK_NOT_IN_REPORT: { zh: '该文件不在这个任务的报告中', en: "The file is not listed in this task's report." },
  TAGSONIC_ERR_TASK_NOTHING_TO_DELETE: { zh: '没有可删除的文件', en: 'There is nothing to delete.' },
  TAGSONIC_ERR_LOG_REASON_SHORT: { zh: '反馈理由至少20字', en: 'The reason needs at least 20 characters.' },
  TAGSONIC_ERR_STRM_BAD_SIGN: { zh: 'strm 播放链接无效（签名错误或已撤销）', en: 'This strm link is not valid (wrong or revoked signature).' },
  TAGSONIC_ERR_TASK_NOTHING_MISSING: { zh: '曲库中没有缺少这一项的歌曲', en: 'No track of the library lacks this.' },
  TAGSONIC_ERR_TASK_GENRE_NEEDS_RULES: { zh: '标签源不提供流派，请用流派规则补全', en: 'Tag sources give no genres: fill in missing genres with the genre rules.' },
  TAGSONIC_ERR_TASK_NO_RULES: { zh: '请至少设置一条流派规则', en: 'Set at least one genre rule (an artist rule, the album majority or AI).' },
  TAGSONIC_ERR_LIBRARY_ARTIST_IMAGE_INVALID: { zh: '歌手图片不是 JPEG、PNG、WebP 或 GIF 图片，或超过 8 MB', en: 'The artist picture is not a JPEG, PNG, WebP or GIF image, or is larger than 8 MB.' },
  TAGSONIC_ERR_LIBRARY_ARTIST_STORE_UNAVAILABLE: { zh: '此进程无法保存歌手图片（未配置数据目录）', en: 'This process cannot save artist pictures (no data folder).' },
  TAGSONIC_ERR_LIBRARY_PICTURE_STORE_UNAVAILABLE: { zh: '此进程无法保存专辑、流派或歌单图片（未配置数据目录）', en: 'This process cannot save album, genre or playlist pictures (no data folder).' },
  TAGSONIC_ERR_TASK_NO_ARTISTS: { zh: '没有需要获取封面的歌手（都已有图片，或曲库还没有歌手）', en: 'No artist needs a picture (all have one, or the library has no artists yet).' },
  TAGSONIC_ERR_SETTINGS_UNKNOWN_KEY: { zh: '没有这个设置项', en: 'There is no such setting.' },
  TAGSONIC_ERR_SETTINGS_BAD_VALUE: { zh: '设置的值不正确，请检查后重试', en: 'The value of this setting is not valid; check it and try again.' },
  TAGSONIC_ERR_SETTINGS_FOLDER_OUTSIDE: { zh: '请选择媒体目录内的文件夹（以 / 开头的完整路径）', en: 'Choose a folder inside the media folders (a full path starting with /).' },
};

/** Why a source's cover could not be downloaded, read from the server's words (one code, several reasons). */
function coverFetch(serverMessage: string): Text {
  const status = /answered HTTP (\d{3})/.exec(serverMessage)?.[1];
  if (status) return { zh: `封面下载失败：来源网站返回 HTTP ${status}`, en: `The cover could not be downloaded: the site answered HTTP ${status}.` };
  if (/reserved address/.test(serverMessage)) {
    return { zh: '封面地址指向本机或内网，已拒绝（只从公网地址或管理员配置的数据源地址下载封面）', en: "The cover's address is on this machine or the local network and was refused (covers are downloaded only from public addresses and the sources' configured addresses)." };
  }
  if (/larger than/.test(serverMessage)) return { zh: '封面图片超过 16 MB，无法写入标签', en: 'The cover is larger than 16 MB and cannot be written into a tag.' };
  if (/not a JPEG, PNG or WebP/.test(serverMessage)) return { zh: '封面地址返回的不是 JPEG、PNG 或 WebP 图片', en: 'The cover address did not return a JPEG, PNG or WebP picture.' };
  if (/within \d+ ms/.test(serverMessage)) return { zh: '封面下载超时，请稍后再试', en: 'Downloading the cover timed out; try again later.' };
  return { zh: '封面下载失败：无法连接来源网站', en: 'The cover could not be downloaded: the site could not be reached.' };
}

/**
 * The text to show for a server failure: the catalogue's for `code` in `lang`, else the server's own
 * message (a code this bundle does not know yet), else nothing.
 */
export function serverMessage(code: string | undefined, server: string, lang: Lang): string {
  const entry = code ? CATALOGUE[code] : undefined;
  if (!entry) return server;
  const text = typeof entry === 'function' ? entry(server) : entry;
  return lang === 'en' ? text.en : text.zh;
}

/** The codes this catalogue speaks for (tests compare it with the codes the server emits). */
export const KNOWN_CODES: readonly string[] = Object.keys(CATALOGUE);
