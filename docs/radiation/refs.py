"""Reference values for unit tests: exact Wallace integral (converged to ~1e-12) and the
approximation sigma_mode (for checking a port)."""
import math
from wallace_exact import sigma_exact
from sigma_mode import sigma_mode
from lowfreq import lf_corrected
cases = [
 # low k (closed form within 1 %)
 (1,1,1.0,0.7,0.5),(2,1,1.0,0.7,1.0),(1,2,1.0,0.2,2.0),(2,2,1.0,0.7,1.0),(3,3,1.0,0.7,0.5),
 (4,2,1.0,0.7,1.0),(3,1,0.6,0.42,1.5),(2,2,0.6,0.42,3.0),(1,1,0.3,0.3,1.0),
 # mid / coincidence / above
 (3,1,1.0,0.2,5.0),(1,3,1.0,0.7,11.892),(5,4,1.0,0.7,18.0),(2,7,1.0,0.7,27.871),(8,8,1.0,0.2,50.0),
 (4,4,1.0,1.0,16.0),(6,5,0.6,0.42,60.0),(2,3,1.0,0.2,30.0),(4,7,1.0,0.7,100.0),(1,1,1.0,0.7,100.0),
]
print("| m | n | a | b | k | k/k_mn | sigma_exact | closed form | sigma_mode (approx) |")
print("|---|---|---|---|---|---|---|---|---|")
for (m,n,a,b,k) in cases:
    s=sigma_exact(m,n,a,b,k,refine=2.0,nq=20)
    kmn=math.hypot(m*math.pi/a,n*math.pi/b)
    cf=lf_corrected(m,n,a,b,k)
    cfs=f"{cf:.4e}" if abs(cf/s-1)<0.01 else "-"
    print(f"| {m} | {n} | {a} | {b} | {k} | {k/kmn:.3f} | {s:.4e} | {cfs} | {sigma_mode(m,n,a,b,k):.10e} |")
