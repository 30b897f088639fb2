/**
 * A web Subsonic client served from its own origin (as airsonic-refix users deploy it) against a real
 * listening server, in Chromium: token login with fetch, album list, a reload that signs in again from
 * the stored token, a preflighted ranged fetch whose Content-Range the script can read, and an
 * <audio crossorigin> element that plays stream.view and seeks (Range requests). Before /rest answered
 * CORS the very first fetch failed ("Failed to fetch"). Screenshot: /tmp/shots-subsonic/web-client.png.
 * Also the admin backend's list of the radio stations a client created (admin-radio.png).
 */
import { createHash } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, startSubsonic, type SubsonicHarness } from '../subsonic-harness.ts';
import { buildDashboard, launchBrowser, makeHome, newContext, startServer, type Home, type Server as TagsonicServer } from './harness.ts';

const SHOTS = '/tmp/shots-subsonic';

/**
 * The client page. Like airsonic-refix it sends an empty `p=` beside `t`+`s` (an empty value is no
 * credential, as Navidrome treats it). MD5 is not in WebCrypto, so the page carries the small classic
 * implementation every Subsonic web client bundles; the test checks it against node's before trusting it.
 */
const PAGE = String.raw`<!doctype html>
<html><head><meta charset="utf-8"><title>Web Subsonic client</title>
<style>body{font:15px sans-serif;margin:24px}li{margin:2px 0}#log{white-space:pre-wrap;color:#333}.err{color:#b00}</style></head>
<body><h1>Web Subsonic client</h1><p id="origin"></p><div id="status">starting</div><ol id="albums"></ol>
<audio id="player" controls crossorigin="anonymous"></audio><pre id="log"></pre>
<script>
function md5(str){function r(x,c){return(x<<c)|(x>>>(32-c))}function a(x,y){var l=(x&0xffff)+(y&0xffff);return(((x>>16)+(y>>16)+(l>>16))<<16)|(l&0xffff)}
function cm(q,x,y,s,t,ac){return a(r(a(a(x,q),a(s,ac)),t),y)}
function ff(x,y,z,w,s,t,ac){return cm((y&z)|(~y&w),x,y,s,t,ac)}function gg(x,y,z,w,s,t,ac){return cm((y&w)|(z&~w),x,y,s,t,ac)}
function hh(x,y,z,w,s,t,ac){return cm(y^z^w,x,y,s,t,ac)}function ii(x,y,z,w,s,t,ac){return cm(z^(y|~w),x,y,s,t,ac)}
var bytes=new TextEncoder().encode(str),n=((bytes.length+8)>>6)+1,m=new Array(n*16).fill(0),i;
for(i=0;i<bytes.length;i++)m[i>>2]|=bytes[i]<<((i%4)*8);m[i>>2]|=0x80<<((i%4)*8);m[n*16-2]=bytes.length*8;
var A=1732584193,B=-271733879,C=-1732584194,D=271733878;
var S=[7,12,17,22,5,9,14,20,4,11,16,23,6,10,15,21],K=[];for(i=0;i<64;i++)K[i]=Math.floor(Math.abs(Math.sin(i+1))*4294967296)|0;
for(var k=0;k<m.length;k+=16){var aa=A,bb=B,cc=C,dd=D;
for(i=0;i<64;i++){var f,g,s=S[(i>>4)*4+(i%4)];
if(i<16){f=ff;g=i}else if(i<32){f=gg;g=(5*i+1)%16}else if(i<48){f=hh;g=(3*i+5)%16}else{f=ii;g=(7*i)%16}
var t=f(A,B,C,D,m[k+g],s,K[i]);A=D;D=C;C=B;B=t;}
A=a(A,aa);B=a(B,bb);C=a(C,cc);D=a(D,dd);}
var out='';[A,B,C,D].forEach(function(v){for(var j=0;j<4;j++)out+=((v>>>(j*8))&255).toString(16).padStart(2,'0')});return out}
window.md5=md5;
const api=new URLSearchParams(location.search).get('api');
const log=(t)=>{document.getElementById('log').textContent+=t+'\n'};
document.getElementById('origin').textContent='page origin '+location.origin+', server '+api;
function auth(){const a=JSON.parse(localStorage.getItem('auth')||'null');if(!a)throw new Error('not signed in');return new URLSearchParams({u:a.u,p:'',t:a.t,s:a.s,v:'1.16.1',c:'web-client',f:'json'})}
async function call(method,params){const q=auth();for(const [k,v] of Object.entries(params||{}))q.set(k,v);
const res=await fetch(api+'/rest/'+method+'.view?'+q);const body=(await res.json())['subsonic-response'];
if(body.status!=='ok')throw new Error(method+': '+body.error.code+' '+body.error.message);return body}
window.login=async(u,p)=>{const s=Math.random().toString(36).slice(2,10);localStorage.setItem('auth',JSON.stringify({u,t:md5(p+s),s}));await call('ping');log('signed in as '+u)};
window.loadAlbums=async()=>{await call('ping');const body=await call('getAlbumList2',{type:'alphabeticalByName',size:'50'});
const list=document.getElementById('albums');list.textContent='';for(const al of body.albumList2.album){const li=document.createElement('li');li.textContent=al.name+' — '+al.artist;list.appendChild(li)}
document.getElementById('status').textContent=body.albumList2.album.length+' albums';return body.albumList2.album};
window.rangedFetch=async(id)=>{const res=await fetch(api+'/rest/stream.view?'+auth()+'&id='+id+'&format=raw',{headers:{Range:'bytes=0-99','X-Requested-With':'web-client'}});
const data=await res.arrayBuffer();return{status:res.status,contentRange:res.headers.get('content-range'),length:res.headers.get('content-length'),bytes:data.byteLength}};
window.play=async(id)=>{const el=document.getElementById('player');el.muted=true;el.src=api+'/rest/stream.view?'+auth()+'&id='+id+'&format=raw';
await el.play();await new Promise((ok,ko)=>{if(el.readyState>=1)ok();el.onloadedmetadata=ok;el.onerror=()=>ko(new Error('media error '+(el.error&&el.error.code)))});
const target=el.duration/2;await new Promise((ok,ko)=>{el.onseeked=ok;el.onerror=()=>ko(new Error('media error '+(el.error&&el.error.code)));el.currentTime=target});
log('playing, seeked to '+el.currentTime.toFixed(1)+' s of '+el.duration.toFixed(1)+' s');return{duration:el.duration,time:el.currentTime,error:el.error&&el.error.code}};
window.onerror=(e)=>{document.getElementById('status').className='err';document.getElementById('status').textContent=String(e)};
</script></body></html>`;

let h: SubsonicHarness;
let site: Server;
let siteUrl: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  h = await startSubsonic({ listen: true });
  site = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  // "localhost" vs 127.0.0.1 and another port: a different origin for certain.
  siteUrl = `http://localhost:${(site.address() as AddressInfo).port}/?api=${encodeURIComponent(h.url)}`;
  browser = await launchBrowser();
  page = await (await newContext(browser)).newPage();
  await mkdir(SHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
  await h?.close();
});

describe('a web Subsonic client on another origin', () => {
  it('signs in with a token, lists albums, survives a reload, and plays and seeks a stream', async () => {
    await page.goto(siteUrl);
    const pageOrigin = await page.evaluate(() => location.origin);
    expect(pageOrigin).not.toBe(new URL(h.url).origin);
    expect(await page.evaluate(() => (window as unknown as { md5(s: string): string }).md5('pässwort-salt'))).toBe(createHash('md5').update('pässwort-salt').digest('hex'));

    await page.evaluate(([u, p]) => (window as unknown as { login(u: string, p: string): Promise<void> }).login(u!, p!), [ADMIN.username, ADMIN.subsonic]);
    const albums = await page.evaluate(() => (window as unknown as { loadAlbums(): Promise<Array<{ id: string; name: string }>> }).loadAlbums());
    expect(albums.length).toBeGreaterThan(3);

    // A reload signs in again from the stored token, as refix does.
    await page.reload();
    const again = await page.evaluate(() => (window as unknown as { loadAlbums(): Promise<Array<{ id: string }>> }).loadAlbums());
    expect(again.map((a) => a.id)).toEqual(albums.map((a) => a.id));

    // A playable song: MP3 plays in any Chromium build.
    let songId = '';
    for (const album of albums) {
      const q = new URLSearchParams({ u: ADMIN.username, p: ADMIN.subsonic, v: '1.16.1', c: 'test', f: 'json', id: album.id });
      const songs = (await (await fetch(`${h.url}/rest/getAlbum.view?${q}`)).json())['subsonic-response'].album.song as Array<{ id: string; suffix: string; duration: number }>;
      const mp3 = songs.find((s) => s.suffix === 'mp3' && s.duration >= 4);
      if (mp3) {
        songId = mp3.id;
        break;
      }
    }
    expect(songId).not.toBe('');

    const ranged = await page.evaluate((id) => (window as unknown as { rangedFetch(id: string): Promise<{ status: number; contentRange: string | null; bytes: number }> }).rangedFetch(id), songId);
    expect(ranged.status).toBe(206);
    expect(ranged.contentRange).toMatch(/^bytes 0-99\/\d+$/);
    expect(ranged.bytes).toBe(100);

    const played = await page.evaluate((id) => (window as unknown as { play(id: string): Promise<{ duration: number; time: number; error: number | null }> }).play(id), songId);
    expect(played.error).toBeNull();
    expect(played.duration).toBeGreaterThan(3);
    expect(played.time).toBeGreaterThan(1);
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/^\d+ albums$/);
    await page.screenshot({ path: `${SHOTS}/web-client.png`, fullPage: true });
  });
});

describe('the admin backend lists the radio stations clients manage', () => {
  const PASSWORD = 'radio-admin-password';
  const SUBSONIC = 'radio-admin-subsonic';
  let home: Home;
  let server: TagsonicServer;

  beforeAll(async () => {
    await buildDashboard();
    home = await makeHome(0);
    process.env.TAGSONIC_SUBSONIC_PASSWORD = SUBSONIC;
    server = await startServer(home.home, PASSWORD);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (home) await rm(home.home, { recursive: true, force: true });
  });

  it('shows each station with its stream and home page', async () => {
    const rest = async (method: string, params: Record<string, string>) => {
      const q = new URLSearchParams({ u: 'admin', p: SUBSONIC, v: '1.16.1', c: 'radio-test', f: 'json', ...params });
      return (await (await fetch(`${server.base}/rest/${method}.view?${q}`)).json())['subsonic-response'];
    };
    expect((await rest('createInternetRadioStation', { name: '电台 Jazz FM', streamUrl: 'https://jazz.example.org/live.aac', homepageUrl: 'https://jazz.example.org/' })).status).toBe('ok');
    expect((await rest('createInternetRadioStation', { name: 'Ambient Radio', streamUrl: 'http://ambient.example.org:8000/stream' })).status).toBe('ok');

    const admin = await (await newContext(browser)).newPage();
    await admin.goto(`${server.base}/`);
    await admin.waitForURL(/\/login$/);
    await admin.fill('#ts-username', 'admin');
    await admin.fill('#ts-password', PASSWORD);
    await admin.press('#ts-password', 'Enter');
    await admin.waitForURL(`${server.base}/`);
    await admin.goto(`${server.base}/admin/`);
    const section = admin.getByTestId('radio-stations');
    await section.locator('tr[data-station]').first().waitFor();
    expect(await section.locator('h3').textContent()).toBe('网络电台');
    const rows = await section.locator('tr[data-station]').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows).toEqual([
      ['Ambient Radio', 'http://ambient.example.org:8000/stream', '—'],
      ['电台 Jazz FM', 'https://jazz.example.org/live.aac', 'https://jazz.example.org/'],
    ]);
    await section.scrollIntoViewIfNeeded();
    await admin.screenshot({ path: `${SHOTS}/admin-radio.png` });
  });
});
