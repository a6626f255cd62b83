# Usage: python3 notifications-gen.py <port of a redis-server 7.0> notifications.src > ../src/test/resources/scenarios/notifications.txt
# (then append the hand-written last scenario again)
# Generates notifications.txt: runs each scenario on the reference redis (port argv[1]) and counts the frames
# the subscriber (c2) receives after each command, so the file asks for exactly that many @recv.
import socket, sys, time, shlex
port=int(sys.argv[1])
def enc(args):
    out=b'*%d\r\n'%len(args)
    for p in args:
        p=p.encode('latin1')
        out+=b'$%d\r\n%s\r\n'%(len(p),p)
    return out
def frames(data):
    # count top-level RESP2 frames
    n=0;i=0
    def parse(i):
        t=data[i:i+1]; j=data.index(b'\r\n',i)
        if t in (b'+',b'-',b':'): return j+2
        if t==b'$':
            l=int(data[i+1:j]); return j+2 if l<0 else j+2+l+2
        if t==b'*':
            l=int(data[i+1:j]); k=j+2
            for _ in range(max(l,0)): k=parse(k)
            return k
        raise Exception(t)
    while i<len(data):
        i=parse(i); n+=1
    return n
def drain(s,wait):
    s.settimeout(wait); data=b''
    try:
        while True:
            d=s.recv(65536)
            if not d: break
            data+=d; s.settimeout(0.05)
    except socket.timeout: pass
    return data
scen=open(sys.argv[2]).read().split('\n### ')
out=[]
for block in scen:
    lines=[l for l in block.strip().split('\n')]
    if lines[0].startswith('#'):
        out.append('\n'.join(lines)); continue
    name=lines[0]; cmds=lines[1:]
    c1=socket.create_connection(('127.0.0.1',port)); c2=socket.create_connection(('127.0.0.1',port))
    c1.sendall(enc(['FLUSHALL'])); drain(c1,0.2)
    res=['### '+name]
    for line in cmds:
        if not line.strip() or line.startswith('#'): res.append(line); continue
        who=c1; text=line
        while text.startswith('@sort ') or text.startswith('@c2 '):
            if text.startswith('@c2 '): who=c2
            text=text.split(' ',1)[1]
        args=shlex.split(text)
        who.sendall(enc(args)); reply=drain(who,0.3)
        res.append(line)
        extra=frames(reply)-1 if who is c2 else 0
        n=extra+frames(drain(c2,0.05)) if who is c1 else extra
        res += ['@c2 @recv']*n
    c1.close(); c2.close()
    out.append('\n'.join(res))
print(out[0]+'\n\n'+'\n\n'.join('### '+o[4:] if o.startswith('### ') else o for o in out[1:]))
